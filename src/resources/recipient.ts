/** POST /api/recipient: list (with share links), create (add without sending), send, update, delete. */
import { z } from 'zod';
import { RECIPIENT_ROLES } from '../core/vocabulary.js';
import { requireClient } from '../domain/context.js';
import { findContract } from '../domain/contracts.js';
import { changeRecipient, removeRecipient } from '../domain/lifecycle.js';
import { isDone } from '../domain/lifecycle-rules.js';
import { ApiError } from '../core/errors.js';
import { recipientsOf } from '../domain/recipients.js';
import type { ResourceSpec } from './action.js';
import { acting, clientKeyField, dataBody, defineAction, keyField, reply } from './action.js';
import { isoSchema, keySchema, okSchema, resultSchema } from './response-shape.js';
import { isoTime } from '../core/time-format.js';
import { ownerUser } from '../domain/users.js';
import { applyRecipients, sendToRecipients } from '../domain/sending.js';
import { recipientList, recipientUpdate } from './recipient-fields.js';

/** An item of `list` (recipientItem in recipient-fields.ts builds it). */
const recipientItemSchema = () =>
  z.strictObject({
    recipientKey: keySchema(),
    id: z.string(),
    name: z.string(),
    fullname: z.string(),
    email: z.string(),
    customMessage: z.string(),
    position: z.string().optional(),
    action: z.enum(RECIPIENT_ROLES),
    clientKey: keySchema(),
    createTime: isoSchema(),
    changeTime: isoSchema(),
    shareLink: z.string().optional(),
    isDone: z.boolean().optional(),
    type: z.enum(['1', '2']).optional(),
  });

export const recipientResource = {
  path: '/api/recipient',
  selector: 'action',
  actions: {
    list: defineAction({
      summary: 'List the recipients of a contract',
      scope: 'client',
      response: () => okSchema(200, { recipients: z.array(recipientItemSchema()) }),
      schema: () =>
        dataBody({
          ...acting('list'),
          contractKey: keyField(),
          // The components ask for each recipient's link, whether it is done, and its type [C].
          getShareLinks: z.boolean().optional(),
        }),
      example: { data: { action: 'list', contractKey: '<CONTRACT_KEY>' } },
      handle(input, ctx) {
        const contract = findContract(ctx, requireClient(ctx), input.data.contractKey);
        const recipients = recipientsOf(ctx, contract.contractKey).map((r) => ({
          recipientKey: r.recipientKey,
          // The service shows id and position as strings in list results (docs/compatibility.md, "Recipient").
          id: String(r.id),
          // The docs say `name`; the components and [E] read `fullname`: both are given.
          name: r.fullname ?? '',
          fullname: r.fullname ?? '',
          email: r.email ?? '',
          customMessage: r.customMessage ?? '',
          ...(r.position !== undefined ? { position: String(r.position) } : {}),
          action: r.action,
          clientKey: r.clientKey,
          createTime: isoTime(r.createTime),
          changeTime: isoTime(r.changeTime),
          // A recipient's own share link is its key (docs/compatibility.md, "Share links").
          ...(input.data.getShareLinks
            ? { shareLink: r.recipientKey, isDone: isDone(r), type: r.type === 'internal' ? '1' : '2' }
            : {}),
        }));
        return reply(200, 'Recipients found', { recipients });
      },
    }),
    create: defineAction({
      summary: 'Add recipients to a contract without sending it (each gets its four special placeholders)',
      scope: 'client',
      response: resultSchema,
      schema: () =>
        dataBody({
          ...acting('create'),
          contractKey: keyField(),
          recipients: recipientList().min(1, 'Give at least one recipient'),
        }),
      example: {
        data: {
          action: 'create',
          contractKey: '<CONTRACT_KEY>',
          recipients: [{ fullname: 'Grace Hopper', email: 'grace@example.com', action: 'sign', position: 1 }],
        },
      },
      handle(input, ctx) {
        const client = requireClient(ctx);
        if (input.data.userKey !== undefined) ownerUser(ctx, client.clientKey, input.data.userKey);
        const contract = findContract(ctx, client, input.data.contractKey);
        // Only new recipients here [D:recipient/create]; changing one is `update` (or an item of `send`).
        if (input.data.recipients.some((r) => r.recipientKey !== undefined)) {
          throw ApiError.badRequest(
            'recipient create adds new recipients; change an existing one with action "update"',
            [{ path: 'data.recipients', message: 'Must not name a recipientKey' }],
          );
        }
        applyRecipients(ctx, contract, input.data.recipients);
        return reply(200, 'Recipient created', { result: true });
      },
    }),
    send: defineAction({
      summary: 'Send a contract, adding or updating recipients first',
      scope: 'client',
      response: resultSchema,
      schema: () =>
        dataBody({
          ...acting('send'),
          contractKey: keyField(),
          recipients: recipientList().optional(),
        }),
      example: {
        data: {
          action: 'send',
          contractKey: '<CONTRACT_KEY>',
          recipients: [{ fullname: 'Grace Hopper', email: 'grace@example.com', action: 'sign' }],
        },
      },
      handle(input, ctx) {
        const client = requireClient(ctx);
        if (input.data.userKey !== undefined) ownerUser(ctx, client.clientKey, input.data.userKey);
        const contract = findContract(ctx, client, input.data.contractKey);
        sendToRecipients(ctx, contract, input.data.recipients ?? []);
        return reply(200, 'Contract sent', { result: true });
      },
    }),
    update: defineAction({
      summary: 'Change a recipient of a contract',
      scope: 'client',
      response: () => okSchema(201, { recipient: z.strictObject({ changeTime: isoSchema() }) }),
      schema: () =>
        dataBody({
          action: z.literal('update'),
          clientKey: clientKeyField(),
          contractKey: keyField(),
          recipient: recipientUpdate(),
        }),
      example: {
        data: {
          action: 'update',
          contractKey: '<CONTRACT_KEY>',
          recipient: { recipientKey: '<RECIPIENT_KEY>', position: 2 },
        },
      },
      handle(input, ctx) {
        const { recipientKey, clientKey: _client, id: _id, ...fields } = input.data.recipient;
        const recipient = changeRecipient(
          ctx,
          findContract(ctx, requireClient(ctx), input.data.contractKey),
          recipientKey,
          fields,
        );
        return reply(201, 'Recipient updated', { recipient: { changeTime: isoTime(recipient.changeTime) } });
      },
    }),
    delete: defineAction({
      summary: 'Remove a recipient from a contract',
      scope: 'client',
      response: resultSchema,
      schema: () =>
        dataBody({
          action: z.literal('delete'),
          clientKey: clientKeyField(),
          contractKey: keyField(),
          recipient: z.object({ recipientKey: keyField() }),
        }),
      example: {
        data: { action: 'delete', contractKey: '<CONTRACT_KEY>', recipient: { recipientKey: '<RECIPIENT_KEY>' } },
      },
      handle(input, ctx) {
        removeRecipient(
          ctx,
          findContract(ctx, requireClient(ctx), input.data.contractKey),
          input.data.recipient.recipientKey,
        );
        return reply(200, 'Recipient deleted', { result: true });
      },
    }),
  },
} satisfies ResourceSpec;

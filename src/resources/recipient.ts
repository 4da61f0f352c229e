/** POST /api/recipient: list, send, update, delete. */
import { z } from 'zod';
import type { OpContext } from '../domain/context.js';
import { requireClient } from '../domain/context.js';
import { assertOpen, findContract } from '../domain/contracts.js';
import { assertKeepsFullySigned, recipientsChanged, sendContract } from '../domain/lifecycle.js';
import { addRecipient, assertChangeable, changesRecipient, deleteRecipient, findRecipient, recipientsOf, updateRecipient } from '../domain/recipients.js';
import { type ResourceSpec, clientKeyField, dataBody, defineAction, keyField, reply } from './action.js';
import type { ContractRecord } from '../store/records.js';
import { isoTime } from '../core/time-format.js';
import { defaultUser } from './client.js';
import { type RecipientItem, recipientList, recipientUpdate } from './recipient-fields.js';

/** Adds new recipients and updates named ones, then sends (shared by contract create-and-send). */
export function sendToRecipients(ctx: OpContext, contract: ContractRecord, items: RecipientItem[]): void {
  const client = requireClient(ctx);
  assertOpen(contract, 'be sent');
  // Check every named recipient before changing anything, so a bad item leaves the contract as it was.
  const existing = items.map((item) => (item.recipientKey !== undefined ? findRecipient(ctx, contract, item.recipientKey) : undefined));
  const changes = items.map(({ recipientKey: _key, clientKey: _client, ...fields }) => fields);
  items.forEach((item, i) => assertKeepsFullySigned(contract, { current: existing[i]?.action, action: item.action }));
  // Naming a recipient exactly as it is changes nothing, so a re-send may repeat recipients that have acted.
  existing.forEach((current, i) => {
    if (current && changesRecipient(current, changes[i]!)) assertChangeable(current, 'be changed');
  });
  items.forEach((_item, i) => {
    const current = existing[i];
    if (!current) addRecipient(ctx, ctx.store.contracts.get(contract.contractKey)!, client, changes[i]!);
    else if (changesRecipient(current, changes[i]!)) updateRecipient(ctx, current, changes[i]!);
  });
  sendContract(ctx, ctx.store.contracts.get(contract.contractKey)!);
}

export const recipientResource: ResourceSpec = {
  path: '/api/recipient',
  selector: 'action',
  actions: {
    list: defineAction({
      summary: 'List the recipients of a contract',
      scope: 'client',
      schema: () => dataBody({ action: z.literal('list'), clientKey: clientKeyField(), contractKey: keyField() }),
      example: { data: { action: 'list', contractKey: '<CONTRACT_KEY>' } },
      handle(input, ctx) {
        const contract = findContract(ctx, requireClient(ctx), input.data.contractKey);
        const recipients = recipientsOf(ctx, contract.contractKey).map((r) => ({
          recipientKey: r.recipientKey,
          // The service shows id and position as strings in list results (decisions §2).
          id: String(r.id),
          name: r.fullname ?? '',
          email: r.email ?? '',
          customMessage: r.customMessage ?? '',
          ...(r.position !== undefined ? { position: String(r.position) } : {}),
          action: r.action,
          clientKey: r.clientKey,
          createTime: isoTime(r.createTime),
          changeTime: isoTime(r.changeTime),
        }));
        return reply(200, 'Recipients found', { recipients });
      },
    }),
    send: defineAction({
      summary: 'Send a contract, adding or updating recipients first',
      scope: 'client',
      schema: () => dataBody({
        action: z.literal('send'),
        clientKey: clientKeyField(),
        userKey: z.string().min(1).optional(),
        contractKey: keyField(),
        recipients: recipientList().optional(),
      }),
      example: {
        data: { action: 'send', contractKey: '<CONTRACT_KEY>', recipients: [{ fullname: 'Grace Hopper', email: 'grace@example.com', action: 'sign' }] },
      },
      handle(input, ctx) {
        const client = requireClient(ctx);
        if (input.data.userKey !== undefined) defaultUser(ctx, client.clientKey, input.data.userKey);
        const contract = findContract(ctx, client, input.data.contractKey);
        sendToRecipients(ctx, contract, input.data.recipients ?? []);
        return reply(200, 'Contract sent', { result: true });
      },
    }),
    update: defineAction({
      summary: 'Change a recipient of a contract',
      scope: 'client',
      schema: () => dataBody({
        action: z.literal('update'),
        clientKey: clientKeyField(),
        contractKey: keyField(),
        recipient: recipientUpdate(),
      }),
      example: { data: { action: 'update', contractKey: '<CONTRACT_KEY>', recipient: { recipientKey: '<RECIPIENT_KEY>', position: 2 } } },
      handle(input, ctx) {
        const contract = findContract(ctx, requireClient(ctx), input.data.contractKey);
        assertOpen(contract, 'change recipients');
        const { recipientKey, clientKey: _client, ...fields } = input.data.recipient;
        const current = findRecipient(ctx, contract, recipientKey);
        assertKeepsFullySigned(contract, { current: current.action, action: fields.action });
        const recipient = updateRecipient(ctx, current, fields);
        recipientsChanged(ctx, contract, { event: 'recipient_updated', recipientKey, detail: { changed: Object.keys(fields).filter((k) => (fields as Record<string, unknown>)[k] !== undefined) } });
        return reply(201, 'Recipient updated', { recipient: { changeTime: isoTime(recipient.changeTime) } });
      },
    }),
    delete: defineAction({
      summary: 'Remove a recipient from a contract',
      scope: 'client',
      schema: () => dataBody({
        action: z.literal('delete'),
        clientKey: clientKeyField(),
        contractKey: keyField(),
        recipient: z.object({ recipientKey: keyField() }),
      }),
      example: { data: { action: 'delete', contractKey: '<CONTRACT_KEY>', recipient: { recipientKey: '<RECIPIENT_KEY>' } } },
      handle(input, ctx) {
        const contract = findContract(ctx, requireClient(ctx), input.data.contractKey);
        assertOpen(contract, 'change recipients');
        const recipient = findRecipient(ctx, contract, input.data.recipient.recipientKey);
        deleteRecipient(ctx, recipient);
        recipientsChanged(ctx, contract, { event: 'recipient_deleted', recipientKey: recipient.recipientKey });
        return reply(200, 'Recipient deleted', { result: true });
      },
    }),
  },
};

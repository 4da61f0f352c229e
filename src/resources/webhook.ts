/** POST /api/webhook: create, list, read, update, delete (domain/webhooks.ts). List and read answer 201, as the docs show. */
import { z } from 'zod';
import { requireClient } from '../domain/context.js';
import { createWebhook, deleteWebhooks, findWebhooks, updateWebhooks, webhooksOf } from '../domain/webhooks.js';
import { type ResourceSpec, clientKeyField, dataBody, defineAction, keyField, reply } from './action.js';
import { isoSchema, keySchema, okSchema } from './response-shape.js';
import type { WebhookRecord } from '../store/records.js';
import { isoTime } from '../core/time-format.js';
import { webhookFlags } from '../core/vocabulary.js';

const webhookInput = () =>
  z.object({
    url: z
      .string()
      .min(1, 'Required')
      .max(2048)
      .refine((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol), {
        message: 'Must be an http:// or https:// URL',
      }),
    ...webhookFlags(() => z.boolean().optional()),
  });

/** `data.webhooks` of every action but list: one to a hundred items. */
const webhookList = <T extends z.ZodType>(item: T) => z.array(item).min(1, 'Give at least one webhook').max(100);

/** The body of read and delete: the webhooks by key. */
const byKeys = <A extends string>(action: A) =>
  dataBody({
    action: z.literal(action),
    clientKey: clientKeyField(),
    webhooks: webhookList(z.object({ webhookKey: keyField() })),
  });
const keysOf = (input: z.infer<ReturnType<typeof byKeys>>) => input.data.webhooks.map((w) => w.webhookKey);

function webhookAnswer(w: WebhookRecord) {
  return {
    webhookKey: w.webhookKey,
    url: w.url,
    secret: w.secret,
    ...webhookFlags((f) => w[f]),
    createTime: isoTime(w.createTime),
    changeTime: isoTime(w.changeTime),
  };
}

const webhookAnswerSchema = () =>
  z.strictObject({
    webhookKey: keySchema(),
    url: z.string(),
    secret: z.string(),
    ...webhookFlags(() => z.boolean()),
    createTime: isoSchema(),
    changeTime: isoSchema(),
  });

export const webhookResource = {
  path: '/api/webhook',
  selector: 'action',
  actions: {
    create: defineAction({
      summary: 'Subscribe URLs to contract events',
      scope: 'client',
      response: () =>
        okSchema(201, {
          webhooks: z.array(
            z.strictObject({ createTime: isoSchema(), url: z.string(), secret: z.string(), webhookKey: keySchema() }),
          ),
        }),
      schema: () =>
        dataBody({
          action: z.literal('create'),
          clientKey: clientKeyField(),
          webhooks: webhookList(webhookInput()),
        }),
      example: {
        data: {
          action: 'create',
          webhooks: [
            {
              url: 'https://example.com/hooks/esign',
              created: true,
              sent: true,
              seen: true,
              signed: true,
              approved: true,
              fullySigned: true,
            },
          ],
        },
      },
      handle(input, ctx) {
        const client = requireClient(ctx);
        const webhooks = input.data.webhooks.map((w) => createWebhook(ctx, client, w));
        return reply(201, 'Webhooks created', {
          webhooks: webhooks.map((w) => ({
            createTime: isoTime(w.createTime),
            url: w.url,
            secret: w.secret,
            webhookKey: w.webhookKey,
          })),
        });
      },
    }),
    list: defineAction({
      summary: 'List the webhooks of a client (answers 201, as the service does)',
      scope: 'client',
      response: () => okSchema(201, { webhooks: z.array(webhookAnswerSchema()) }),
      schema: () => dataBody({ action: z.literal('list'), clientKey: clientKeyField() }),
      example: { data: { action: 'list' } },
      handle(_input, ctx) {
        return reply(201, 'Webhooks found', { webhooks: webhooksOf(ctx, requireClient(ctx)).map(webhookAnswer) });
      },
    }),
    read: defineAction({
      summary: 'Read webhooks by key (answers 201, as the service does)',
      scope: 'client',
      response: () => okSchema(201, { webhooks: z.array(webhookAnswerSchema()) }),
      schema: () => byKeys('read'),
      example: { data: { action: 'read', webhooks: [{ webhookKey: '<WEBHOOK_KEY>' }] } },
      handle(input, ctx) {
        const found = findWebhooks(ctx, requireClient(ctx), keysOf(input));
        return reply(201, 'Webhooks read', { webhooks: found.map(webhookAnswer) });
      },
    }),
    update: defineAction({
      summary: 'Change webhooks: URL and event flags (only the fields given)',
      scope: 'client',
      response: () =>
        okSchema(201, { webhooks: z.array(z.strictObject({ webhookKey: keySchema(), changeTime: isoSchema() })) }),
      schema: () =>
        dataBody({
          action: z.literal('update'),
          clientKey: clientKeyField(),
          webhooks: webhookList(webhookInput().partial().extend({ webhookKey: keyField() })),
        }),
      example: { data: { action: 'update', webhooks: [{ webhookKey: '<WEBHOOK_KEY>', seen: false }] } },
      handle(input, ctx) {
        const updated = updateWebhooks(ctx, requireClient(ctx), input.data.webhooks);
        return reply(201, 'Webhooks updated', {
          webhooks: updated.map((w) => ({ webhookKey: w.webhookKey, changeTime: isoTime(w.changeTime) })),
        });
      },
    }),
    delete: defineAction({
      summary: 'Delete webhooks',
      scope: 'client',
      response: () => okSchema(201, { webhooks: z.array(z.strictObject({ webhookKey: keySchema() })) }),
      schema: () => byKeys('delete'),
      example: { data: { action: 'delete', webhooks: [{ webhookKey: '<WEBHOOK_KEY>' }] } },
      handle(input, ctx) {
        deleteWebhooks(ctx, requireClient(ctx), keysOf(input));
        return reply(201, 'Webhooks deleted', {
          webhooks: input.data.webhooks.map(({ webhookKey }) => ({ webhookKey })),
        });
      },
    }),
  },
} satisfies ResourceSpec;

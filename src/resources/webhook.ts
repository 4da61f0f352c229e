/**
 * POST /api/webhook: create, list, delete. The secret is `whsec_` + base64 of 24 random bytes, the Standard
 * Webhooks form, so public verifiers accept deliveries as they are. List answers 201, as the spec shows.
 */
import { z } from 'zod';
import type { OpContext } from '../domain/context.js';
import { requireClient } from '../domain/context.js';
import { ApiError, quote } from '../core/errors.js';
import { type ResourceSpec, clientKeyField, dataBody, defineAction, keyField, reply } from './action.js';
import type { ClientRecord, WebhookRecord } from '../store/records.js';
import { isoTime } from '../core/time-format.js';
import { lazy } from '../core/lazy.js';

const flag = lazy(() => z.boolean().optional());

const webhookInput = lazy(() => z.object({
  url: z
    .string()
    .min(1, 'Required')
    .max(2048)
    .refine((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol), { message: 'Must be an http:// or https:// URL' }),
  created: flag(),
  seen: flag(),
  sent: flag(),
  approved: flag(),
  signed: flag(),
  fullySigned: flag(),
}));

export type WebhookInput = z.infer<ReturnType<typeof webhookInput>>;

export function createWebhook(ctx: OpContext, client: ClientRecord, input: WebhookInput): WebhookRecord {
  const now = ctx.clock.now();
  return ctx.store.webhooks.insert({
    webhookKey: ctx.ids.key(),
    clientKey: client.clientKey,
    platformId: client.platformId,
    url: input.url,
    secret: `whsec_${ctx.ids.bytes(24).toString('base64')}`,
    // A flag left out subscribes to nothing: the service sends only the kinds whose flag is true.
    created: input.created ?? false,
    seen: input.seen ?? false,
    sent: input.sent ?? false,
    approved: input.approved ?? false,
    signed: input.signed ?? false,
    fullySigned: input.fullySigned ?? false,
    createTime: now,
    changeTime: now,
  });
}

export function webhookView(w: WebhookRecord) {
  return {
    webhookKey: w.webhookKey,
    url: w.url,
    secret: w.secret,
    created: w.created,
    seen: w.seen,
    sent: w.sent,
    approved: w.approved,
    signed: w.signed,
    fullySigned: w.fullySigned,
    createTime: isoTime(w.createTime),
    changeTime: isoTime(w.changeTime),
  };
}

export const webhookResource: ResourceSpec = {
  path: '/api/webhook',
  selector: 'action',
  actions: {
    create: defineAction({
      summary: 'Subscribe URLs to contract events',
      scope: 'client',
      schema: () => dataBody({ action: z.literal('create'), clientKey: clientKeyField(), webhooks: z.array(webhookInput()).min(1, 'Give at least one webhook').max(100) }),
      example: {
        data: { action: 'create', webhooks: [{ url: 'https://example.com/hooks/esign', created: true, sent: true, seen: true, signed: true, approved: true, fullySigned: true }] },
      },
      handle(input, ctx) {
        const client = requireClient(ctx);
        const webhooks = input.data.webhooks.map((w) => createWebhook(ctx, client, w));
        return reply(201, 'Webhooks created', {
          webhooks: webhooks.map((w) => ({ createTime: isoTime(w.createTime), url: w.url, secret: w.secret, webhookKey: w.webhookKey })),
        });
      },
    }),
    list: defineAction({
      summary: 'List the webhooks of a client (answers 201, as the service does)',
      scope: 'client',
      schema: () => dataBody({ action: z.literal('list'), clientKey: clientKeyField() }),
      example: { data: { action: 'list' } },
      handle(_input, ctx) {
        return reply(201, 'Webhooks found', { webhooks: ctx.store.webhooks.where('client', requireClient(ctx).clientKey).map(webhookView) });
      },
    }),
    delete: defineAction({
      summary: 'Delete webhooks',
      scope: 'client',
      schema: () => dataBody({
        action: z.literal('delete'),
        clientKey: clientKeyField(),
        webhooks: z.array(z.object({ webhookKey: keyField() })).min(1, 'Give at least one webhook').max(100),
      }),
      example: { data: { action: 'delete', webhooks: [{ webhookKey: '<WEBHOOK_KEY>' }] } },
      handle(input, ctx) {
        const client = requireClient(ctx);
        // Check all keys first, so one unknown key deletes nothing.
        for (const { webhookKey } of input.data.webhooks) {
          const w = ctx.store.webhooks.get(webhookKey);
          if (!w || w.clientKey !== client.clientKey) throw ApiError.notFound(`Webhook ${quote(webhookKey)} not found`);
        }
        for (const { webhookKey } of input.data.webhooks) {
          ctx.store.webhooks.delete(webhookKey);
          ctx.bus.emit({ type: 'webhook.deleted', platformId: client.platformId, webhookKey });
        }
        return reply(201, 'Webhooks deleted', { webhooks: input.data.webhooks.map(({ webhookKey }) => ({ webhookKey })) });
      },
    }),
  },
};

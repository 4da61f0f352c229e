/**
 * Webhook subscriptions of a client. The secret is `whsec_` + base64 of 24 random bytes, the Standard Webhooks
 * form, so public verifiers accept deliveries as they are. Delivering is the webhook dispatcher's (src/webhooks/),
 * which hears the contract events.
 */
import { ApiError, quote } from '../core/errors.js';
import type { OpContext } from './context.js';
import type { ClientRecord, WebhookRecord } from '../store/records.js';
import { type WebhookFlag, webhookFlags } from '../core/vocabulary.js';

/** The URL and the flags of the events it subscribes to (a flag left out subscribes to nothing). */
export type NewWebhook = { url: string } & Partial<Record<WebhookFlag, boolean | undefined>>;

export function createWebhook(ctx: OpContext, client: ClientRecord, input: NewWebhook): WebhookRecord {
  const now = ctx.clock.now();
  return ctx.store.webhooks.insert({
    webhookKey: ctx.ids.key(),
    clientKey: client.clientKey,
    platformId: client.platformId,
    url: input.url,
    secret: `whsec_${ctx.ids.bytes(24).toString('base64')}`,
    // A flag left out subscribes to nothing: the service sends only the kinds whose flag is true.
    ...webhookFlags((f) => input[f] ?? false),
    createTime: now,
    changeTime: now,
  });
}

export function webhooksOf(ctx: OpContext, client: ClientRecord): WebhookRecord[] {
  return ctx.store.webhooks.where('client', client.clientKey);
}

/** Webhooks of this client by key, in the order given; one unknown key answers 404. */
export function findWebhooks(ctx: OpContext, client: ClientRecord, webhookKeys: string[]): WebhookRecord[] {
  return webhookKeys.map((webhookKey) => {
    const w = ctx.store.webhooks.get(webhookKey);
    if (!w || w.clientKey !== client.clientKey) throw ApiError.notFound(`Webhook ${quote(webhookKey)} not found`);
    return w;
  });
}

/** Webhook `update` [D:webhook/update]: each item's given fields change; one unknown key changes none. */
export function updateWebhooks(
  ctx: OpContext,
  client: ClientRecord,
  changes: (Partial<NewWebhook> & { webhookKey: string })[],
): WebhookRecord[] {
  findWebhooks(
    ctx,
    client,
    changes.map((c) => c.webhookKey),
  );
  const now = ctx.clock.now();
  return changes.map(({ webhookKey, ...fields }) => {
    const patch: Partial<WebhookRecord> = { changeTime: now };
    for (const [k, v] of Object.entries(fields)) if (v !== undefined) (patch as Record<string, unknown>)[k] = v;
    return ctx.store.webhooks.update(webhookKey, patch);
  });
}

/** Deletes webhooks of this client; one unknown key deletes none. Pending retries go with them (`webhook.deleted`). */
export function deleteWebhooks(ctx: OpContext, client: ClientRecord, webhookKeys: string[]): void {
  for (const webhookKey of webhookKeys) {
    const w = ctx.store.webhooks.get(webhookKey);
    if (!w || w.clientKey !== client.clientKey) throw ApiError.notFound(`Webhook ${quote(webhookKey)} not found`);
  }
  for (const webhookKey of webhookKeys) {
    ctx.store.webhooks.delete(webhookKey);
    ctx.bus.emit({ type: 'webhook.deleted', platformId: client.platformId, webhookKey });
  }
}

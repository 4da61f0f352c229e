/**
 * Clients of a platform: creation (with their users) and lookup. Every lookup stays inside one platform: a key of
 * another platform answers 404 like a key that does not exist, so a tenant never learns that another's client
 * exists (docs/errors.md).
 */
import { ApiError, quote } from '../core/errors.js';
import type { OpContext, Principal } from './context.js';
import type { BrandingSettings, ClientRecord, EmailNotificationSettings, UserRecord } from '../store/records.js';
import { definedFields } from './fields.js';
import { type NewUser, addUsers } from './users.js';

export interface NewClient {
  /** A fixed key (fixtures and scenarios); generated when absent. */
  clientKey?: string | undefined;
  fullname?: string | undefined;
  email?: string | undefined;
  organization?: string | undefined;
  customKey?: string | undefined;
  notification?: EmailNotificationSettings | undefined;
  /** With none, one default user is made from the client's own name and email: the service always has one. */
  users?: NewUser[] | undefined;
}

/** How a client is named to people (the dashboard, the start-up banner): its name, else (none or empty) its key. */
export function clientName(client: Pick<ClientRecord, 'clientKey' | 'fullname'>): string {
  return client.fullname || client.clientKey;
}

export function createClient(
  ctx: OpContext,
  platformId: string,
  input: NewClient,
): { client: ClientRecord; users: UserRecord[] } {
  const now = ctx.clock.now();
  const client = ctx.store.clients.insert({
    clientKey: input.clientKey ?? ctx.ids.key(),
    platformId,
    ...definedFields({
      fullname: input.fullname,
      email: input.email,
      organization: input.organization,
      customKey: input.customKey,
    }),
    notification: input.notification ?? { approved: true, signed: true },
    createTime: now,
    changeTime: now,
  });
  const users = addUsers(
    ctx,
    client,
    input.users?.length ? input.users : [{ fullname: input.fullname, email: input.email }],
  );
  return { client, users };
}

/** A client of this platform, or 404. */
export function findClient(ctx: Pick<OpContext, 'store'>, platformId: string, clientKey: string): ClientRecord {
  const client = ctx.store.clients.get(clientKey);
  if (!client || client.platformId !== platformId) throw ApiError.notFound('Client not found');
  return client;
}

/**
 * The client an operation acts for (docs/errors.md): a client token acts for its own client only (403 when the body
 * names another); platform credentials name the client in `field`.
 */
export function clientFor(
  ctx: Pick<OpContext, 'store'>,
  principal: Principal,
  given: string | undefined,
  field = 'data.clientKey',
): ClientRecord {
  // Real clients send `clientKey: ""` for "none" (docs/compatibility.md).
  const clientKey = given === '' ? undefined : given;
  if (principal.kind === 'client-token') {
    if (clientKey !== undefined && clientKey !== principal.clientKey) {
      throw ApiError.forbidden(`This client token belongs to another client than ${field} ${quote(clientKey)}`);
    }
    return findClient(ctx, principal.platformId, principal.clientKey);
  }
  if (clientKey === undefined) {
    const how = principal.kind === 'api-key' ? 'with the API-key header' : 'with a platform token';
    throw ApiError.badRequest(`${field} is required ${how}`, [{ path: field, message: 'Required' }]);
  }
  return findClient(ctx, principal.platformId, clientKey);
}

/** Switches the "contract signed" / "contract approved" emails of a client (settings `email_notifications`). */
export function updateNotifications(
  ctx: OpContext,
  client: ClientRecord,
  change: Partial<EmailNotificationSettings>,
): ClientRecord {
  return ctx.store.clients.update(client.clientKey, {
    notification: {
      approved: change.approved ?? client.notification.approved,
      signed: change.signed ?? client.notification.signed,
    },
    changeTime: ctx.clock.now(),
  });
}

/** The clients of a platform (client `list` [D:client/list]), oldest first. */
export function clientsOf(ctx: OpContext, platformId: string): ClientRecord[] {
  return ctx.store.clients.where('platform', platformId).sort((a, b) => a.createTime - b.createTime);
}

/** Client `update` [D:client/update]: only the fields given change. */
export function updateClient(
  ctx: OpContext,
  client: ClientRecord,
  change: {
    fullname?: string | undefined;
    email?: string | undefined;
    organization?: string | undefined;
    customKey?: string | undefined;
  },
): ClientRecord {
  return ctx.store.clients.update(client.clientKey, { ...definedFields(change), changeTime: ctx.clock.now() });
}

/**
 * Settings `brandings` [D:settings/branding]: kept on the client, the fields given replacing the stored ones. The
 * sandbox sends no mail and has no plans, so it stores them (GET /__sandbox/state shows them) and applies none.
 */
export function updateBranding(ctx: OpContext, client: ClientRecord, change: BrandingSettings): ClientRecord {
  return ctx.store.clients.update(client.clientKey, {
    branding: { ...client.branding, ...definedFields({ ...change }) },
    changeTime: ctx.clock.now(),
  });
}

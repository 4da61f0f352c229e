/**
 * Users of a client. A client always has a default user, the one a contract or template belongs to when the
 * request names no `userKey` (docs/compatibility.md).
 */
import { ApiError } from '../core/errors.js';
import type { OpContext } from './context.js';
import type { ClientRecord, UserRecord } from '../store/records.js';
import { definedFields } from './fields.js';

export interface NewUser {
  /** A fixed key (fixtures and scenarios); generated when absent. */
  userKey?: string | undefined;
  fullname?: string | undefined;
  email?: string | undefined;
  customKey?: string | undefined;
  /** Makes this user the client's default. */
  default?: boolean | undefined;
}

/**
 * Adds users to a client. The user marked `default` (else the first added) becomes the default, unless the client
 * already has users and none of the new ones is marked: then it keeps its default.
 */
export function addUsers(ctx: OpContext, client: ClientRecord, users: NewUser[]): UserRecord[] {
  const now = ctx.clock.now();
  const existing = ctx.store.users.where('client', client.clientKey);
  const marked = users.findIndex((u) => u.default);
  const defaultIndex = existing.length > 0 && marked < 0 ? -1 : Math.max(0, marked);
  if (defaultIndex >= 0) for (const u of existing) if (u.default) ctx.store.users.update(u.userKey, { default: false });
  return users.map((u, i) =>
    ctx.store.users.insert({
      userKey: u.userKey ?? ctx.ids.key(),
      clientKey: client.clientKey,
      platformId: client.platformId,
      ...definedFields({ fullname: u.fullname, email: u.email, customKey: u.customKey }),
      default: i === defaultIndex,
      createTime: now,
      changeTime: now,
    }),
  );
}

/** The named user of this client (404 for another client's), or the client's default user. */
export function ownerUser(ctx: OpContext, clientKey: string, userKey: string | undefined): UserRecord {
  if (userKey !== undefined) {
    const user = ctx.store.users.get(userKey);
    if (!user || user.clientKey !== clientKey) throw ApiError.notFound('User not found');
    return user;
  }
  const users = ctx.store.users.where('client', clientKey);
  const user = users.find((u) => u.default) ?? users[0];
  if (!user) throw ApiError.conflict('The client has no users; create the client with at least one user');
  return user;
}

export function usersOf(ctx: OpContext, clientKey: string): UserRecord[] {
  return ctx.store.users.where('client', clientKey);
}

export interface UserQuery {
  userKey?: string | undefined;
  fullname?: string | undefined;
  email?: string | undefined;
  customKey?: string | undefined;
}

/**
 * User `read` [D:user/read]: the user of this client matching every field given (the key, or a name, email or
 * custom key), the oldest first when several match; 404 when none does.
 */
export function findUser(ctx: OpContext, clientKey: string, query: UserQuery): UserRecord {
  const wanted = Object.entries(query).filter(([, v]) => v !== undefined && v !== '');
  const user = usersOf(ctx, clientKey)
    .sort((a, b) => a.createTime - b.createTime)
    .find((u) => wanted.every(([k, v]) => (u as unknown as Record<string, unknown>)[k] === v));
  if (!user || wanted.length === 0) throw ApiError.notFound('User not found');
  return user;
}

/** User `update` [D:user/update]: only the fields given change. */
export function updateUser(ctx: OpContext, user: UserRecord, change: Omit<UserQuery, 'userKey'>): UserRecord {
  return ctx.store.users.update(user.userKey, { ...definedFields(change), changeTime: ctx.clock.now() });
}

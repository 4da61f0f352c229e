/**
 * POST /api/client: create (platform credentials) and read. Creating a client also creates its users; the
 * first is the default user. With no users given, one default user is made from the client's own name and
 * email (the service always has a default user to fall back on when `userKey` is omitted).
 */
import { z } from 'zod';
import type { OpContext } from '../domain/context.js';
import { requireClient } from '../domain/context.js';
import { ApiError } from '../core/errors.js';
import { type ResourceSpec, dataBody, defineAction, keyField, reply } from './action.js';
import type { ClientRecord, UserRecord } from '../store/records.js';
import { sqlTime } from '../core/time-format.js';
import { lazy } from '../core/lazy.js';

const userInput = lazy(() => z.object({ fullname: z.string().optional(), email: z.string().optional(), customKey: z.string().optional() }));

const clientInput = lazy(() => z.object({
  fullname: z.string().optional(),
  email: z.string().optional(),
  organization: z.string().optional(),
  customKey: z.string().optional(),
  users: z.array(userInput()).max(1000).optional(),
}));

export type ClientInput = z.infer<ReturnType<typeof clientInput>>;

export function createClient(input: ClientInput, ctx: OpContext & { platformId: string }): { client: ClientRecord; users: UserRecord[] } {
  const now = ctx.clock.now();
  const client = ctx.store.clients.insert({
    clientKey: ctx.ids.key(),
    platformId: ctx.platformId,
    ...pick(input, ['fullname', 'email', 'organization', 'customKey']),
    notification: { approved: true, signed: true },
    createTime: now,
    changeTime: now,
  });
  const wanted = input.users?.length ? input.users : [{ fullname: input.fullname, email: input.email }];
  const users = wanted.map((u, i) =>
    ctx.store.users.insert({
      userKey: ctx.ids.key(),
      clientKey: client.clientKey,
      platformId: ctx.platformId,
      ...pick(u, ['fullname', 'email', 'customKey']),
      default: i === 0,
      createTime: now,
      changeTime: now,
    }),
  );
  return { client, users };
}

/** Copies only the fields that are set, so absent fields stay absent in the record. */
export function pick<T extends object, K extends keyof T>(source: T, keys: K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  return out;
}

export function clientView(client: ClientRecord) {
  return {
    createTime: sqlTime(client.createTime),
    changeTime: sqlTime(client.changeTime),
    clientKey: client.clientKey,
    fullname: client.fullname ?? '',
    email: client.email ?? '',
    organization: client.organization ?? '',
    customKey: client.customKey ?? '',
  };
}

export const clientResource: ResourceSpec = {
  path: '/api/client',
  selector: 'action',
  actions: {
    create: defineAction({
      summary: 'Create a client with its users (platform token or API-key header)',
      scope: 'platform',
      schema: () => dataBody({
        action: z.literal('create'),
        client: clientInput().refine(
          (c) => [c.fullname, c.email, c.organization, c.customKey].some((v) => v !== undefined && v !== '') || (c.users?.length ?? 0) > 0,
          { message: 'At least one of fullname, email, organization, customKey or users must be filled' },
        ),
      }),
      example: {
        data: {
          action: 'create',
          client: { fullname: 'Ada Lovelace', email: 'ada@example.com', organization: 'Analytical Engines Ltd', users: [{ fullname: 'Ada Lovelace', email: 'ada@example.com' }] },
        },
      },
      handle(input, ctx) {
        const { client, users } = createClient(input.data.client, { ...ctx, platformId: ctx.principal!.platformId });
        return reply(201, 'Client created', {
          client: {
            createTime: sqlTime(client.createTime),
            clientKey: client.clientKey,
            users: users.map((u) => ({ createTime: sqlTime(u.createTime), default: u.default, userKey: u.userKey })),
          },
        });
      },
    }),
    read: defineAction({
      summary: 'Read a client',
      scope: 'client',
      schema: () => dataBody({
        action: z.literal('read'),
        clientKey: z.string().optional(),
        client: clientInput().omit({ users: true }).extend({ clientKey: keyField() }),
      }),
      clientKey: { of: (input) => input.data.client.clientKey, path: 'data.client.clientKey' },
      example: { data: { action: 'read', client: { clientKey: '<CLIENT_KEY>' } } },
      handle(_input, ctx) {
        return reply(200, 'Client found', { client: clientView(requireClient(ctx)) });
      },
    }),
  },
};

export function defaultUser(ctx: OpContext, clientKey: string, userKey: string | undefined): UserRecord {
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

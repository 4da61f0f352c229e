/**
 * POST /api/client: create (platform credentials) and read. Creating a client also creates its users; the
 * first is the default user (domain/clients.ts).
 */
import { z } from 'zod';
import { requireClient } from '../domain/context.js';
import { createClient } from '../domain/clients.js';
import { type ResourceSpec, dataBody, defineAction, keyField, reply } from './action.js';
import type { ClientRecord } from '../store/records.js';
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

function clientView(client: ClientRecord) {
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
        const { client, users } = createClient(ctx, ctx.principal!.platformId, input.data.client);
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

/**
 * POST /api/client: create and list (platform credentials), read and update. Creating a client also creates its users; the
 * first is the default user (domain/clients.ts).
 */
import { z } from 'zod';
import { requireClient } from '../domain/context.js';
import { clientsOf, createClient, updateClient } from '../domain/clients.js';
import { type ResourceSpec, dataBody, defineAction, keyField, optionalKeyField, reply } from './action.js';
import { isoSchema, keySchema, okSchema, sqlSchema } from './response-shape.js';
import type { ClientRecord } from '../store/records.js';
import { isoTime, sqlTime } from '../core/time-format.js';

const userInput = () =>
  z.object({ fullname: z.string().optional(), email: z.string().optional(), customKey: z.string().optional() });

const clientInput = () =>
  z.object({
    fullname: z.string().optional(),
    email: z.string().optional(),
    organization: z.string().optional(),
    customKey: z.string().optional(),
    users: z.array(userInput()).max(1000).optional(),
  });

/** The body of update and read: the client's key inside `data.client`, beside the fields. */
const clientBody = <A extends string, K extends z.ZodType>(action: A, clientKey: K) =>
  dataBody({
    action: z.literal(action),
    clientKey: z.string().optional(),
    client: clientInput().omit({ users: true }).extend({ clientKey }),
  });

/** Where update and read find the client, with platform credentials: `data.client.clientKey`. */
const CLIENT_IN_BODY = {
  of: (input: { data: { client: { clientKey?: string | undefined } } }) => input.data.client.clientKey,
  path: 'data.client.clientKey',
};

function clientAnswer(client: ClientRecord) {
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

const clientAnswerSchema = () =>
  z.strictObject({
    createTime: sqlSchema(),
    changeTime: sqlSchema(),
    clientKey: keySchema(),
    fullname: z.string(),
    email: z.string(),
    organization: z.string(),
    customKey: z.string(),
  });

export const clientResource = {
  path: '/api/client',
  selector: 'action',
  actions: {
    create: defineAction({
      summary: 'Create a client with its users (platform token or API-key header)',
      scope: 'platform',
      response: () =>
        okSchema(201, {
          client: z.strictObject({
            createTime: sqlSchema(),
            clientKey: keySchema(),
            users: z.array(z.strictObject({ createTime: sqlSchema(), default: z.boolean(), userKey: keySchema() })),
          }),
        }),
      schema: () =>
        dataBody({
          action: z.literal('create'),
          client: clientInput().refine(
            (c) =>
              [c.fullname, c.email, c.organization, c.customKey].some((v) => v !== undefined && v !== '') ||
              (c.users?.length ?? 0) > 0,
            { message: 'At least one of fullname, email, organization, customKey or users must be filled' },
          ),
        }),
      example: {
        data: {
          action: 'create',
          client: {
            fullname: 'Ada Lovelace',
            email: 'ada@example.com',
            organization: 'Analytical Engines Ltd',
            users: [{ fullname: 'Ada Lovelace', email: 'ada@example.com' }],
          },
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
    list: defineAction({
      summary: 'List the clients of the platform (platform token or API-key header)',
      scope: 'platform',
      response: () =>
        okSchema(200, {
          clients: z.array(
            clientAnswerSchema().extend({
              createTime: isoSchema(),
              changeTime: isoSchema(),
              multiple: z.literal(true),
            }),
          ),
        }),
      schema: () => dataBody({ action: z.literal('list') }),
      example: { data: { action: 'list' } },
      handle(_input, ctx) {
        const clients = clientsOf(ctx, ctx.principal!.platformId).map((c) => ({
          ...clientAnswer(c),
          createTime: isoTime(c.createTime),
          changeTime: isoTime(c.changeTime),
          // The docs show `multiple: true` on every item [D:client/list]; its meaning is not documented.
          multiple: true,
        }));
        return reply(200, 'Clients found', { clients });
      },
    }),
    update: defineAction({
      summary: "Change a client's name, email, organization or custom key",
      scope: 'client',
      response: () => okSchema(201, { client: z.strictObject({ changeTime: sqlSchema(), clientKey: keySchema() }) }),
      schema: () => clientBody('update', keyField()),
      clientKey: CLIENT_IN_BODY,
      example: {
        data: { action: 'update', client: { clientKey: '<CLIENT_KEY>', organization: 'Analytical Engines plc' } },
      },
      handle(input, ctx) {
        const { clientKey: _key, ...change } = input.data.client;
        const c = updateClient(ctx, requireClient(ctx), change);
        return reply(201, 'Client updated', { client: { changeTime: sqlTime(c.changeTime), clientKey: c.clientKey } });
      },
    }),
    read: defineAction({
      summary: 'Read a client',
      scope: 'client',
      response: () => okSchema(200, { client: clientAnswerSchema() }),
      // With a client token the components send `client: {}` (their clientKey is undefined): the token's client
      // (docs/compatibility.md, "Empty keys").
      schema: () => clientBody('read', optionalKeyField()),
      clientKey: CLIENT_IN_BODY,
      example: { data: { action: 'read', client: { clientKey: '<CLIENT_KEY>' } } },
      handle(_input, ctx) {
        return reply(200, 'Client found', { client: clientAnswer(requireClient(ctx)) });
      },
    }),
  },
} satisfies ResourceSpec;

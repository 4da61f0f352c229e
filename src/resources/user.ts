/** POST /api/user: list (list format times), create, read, update. */
import { z } from 'zod';
import { requireClient } from '../domain/context.js';
import { addUsers, findUser, updateUser, usersOf } from '../domain/users.js';
import type { ResourceSpec } from './action.js';
import { clientKeyField, dataBody, defineAction, keyField, optionalKeyField, reply } from './action.js';
import { isoSchema, keySchema, okSchema, sqlSchema } from './response-shape.js';
import { isoTime, sqlTime } from '../core/time-format.js';
import type { UserRecord } from '../store/records.js';

const userFields = () => ({
  fullname: z.string().optional(),
  email: z.string().optional(),
  customKey: z.string().optional(),
});

/** A user as answers show it; times in the SQL form, or ISO 8601 in a list (docs/compatibility.md, "Times"). */
function userAnswer(u: UserRecord, time: (ms: number) => string = sqlTime) {
  return {
    createTime: time(u.createTime),
    changeTime: time(u.changeTime),
    userKey: u.userKey,
    fullname: u.fullname ?? '',
    email: u.email ?? '',
    customKey: u.customKey ?? '',
  };
}

const userAnswerSchema = () =>
  z.strictObject({
    createTime: sqlSchema(),
    changeTime: sqlSchema(),
    userKey: keySchema(),
    fullname: z.string(),
    email: z.string(),
    customKey: z.string(),
  });

export const userResource = {
  path: '/api/user',
  selector: 'action',
  actions: {
    list: defineAction({
      summary: 'List the users of a client',
      scope: 'client',
      response: () =>
        okSchema(200, {
          users: z.array(userAnswerSchema().extend({ createTime: isoSchema(), changeTime: isoSchema() })),
        }),
      schema: () => dataBody({ action: z.literal('list'), clientKey: clientKeyField() }),
      example: { data: { action: 'list', clientKey: '<CLIENT_KEY>' } },
      handle(_input, ctx) {
        const users = usersOf(ctx, requireClient(ctx).clientKey).map((u) => userAnswer(u, isoTime));
        return reply(200, 'Users found', { users });
      },
    }),
    create: defineAction({
      summary: 'Add a user to a client',
      scope: 'client',
      response: () => okSchema(201, { user: z.strictObject({ createTime: sqlSchema(), userKey: keySchema() }) }),
      schema: () =>
        dataBody({
          action: z.literal('create'),
          clientKey: clientKeyField(),
          user: z
            .object(userFields())
            .refine((u) => [u.fullname, u.email, u.customKey].some((v) => v !== undefined && v !== ''), {
              message: 'At least one of fullname, email or customKey must be filled',
            }),
        }),
      example: { data: { action: 'create', user: { fullname: 'Charles Babbage', email: 'charles@example.com' } } },
      handle(input, ctx) {
        const [u] = addUsers(ctx, requireClient(ctx), [input.data.user]);
        return reply(201, 'User created', { user: { createTime: sqlTime(u!.createTime), userKey: u!.userKey } });
      },
    }),
    read: defineAction({
      summary: 'Read a user by key, name, email or custom key',
      scope: 'client',
      response: () => okSchema(200, { user: userAnswerSchema() }),
      schema: () =>
        dataBody({
          action: z.literal('read'),
          clientKey: clientKeyField(),
          user: z
            .object({ userKey: optionalKeyField(), ...userFields() })
            .refine((u) => [u.userKey, u.fullname, u.email, u.customKey].some((v) => v !== undefined && v !== ''), {
              message: 'Give userKey, fullname, email or customKey',
            }),
        }),
      example: { data: { action: 'read', user: { userKey: '<USER_KEY>' } } },
      handle(input, ctx) {
        return reply(200, 'User found', {
          user: userAnswer(findUser(ctx, requireClient(ctx).clientKey, input.data.user)),
        });
      },
    }),
    update: defineAction({
      summary: "Change a user's name, email or custom key",
      scope: 'client',
      response: () => okSchema(201, { user: z.strictObject({ changeTime: sqlSchema(), userKey: keySchema() }) }),
      schema: () =>
        dataBody({
          action: z.literal('update'),
          clientKey: clientKeyField(),
          user: z.object({ userKey: keyField(), ...userFields() }),
        }),
      example: { data: { action: 'update', user: { userKey: '<USER_KEY>', fullname: 'Ada King' } } },
      handle(input, ctx) {
        const { userKey, ...change } = input.data.user;
        const u = updateUser(ctx, findUser(ctx, requireClient(ctx).clientKey, { userKey }), change);
        return reply(201, 'User updated', { user: { changeTime: sqlTime(u.changeTime), userKey: u.userKey } });
      },
    }),
  },
} satisfies ResourceSpec;

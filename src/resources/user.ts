/** POST /api/user: list the users of a client (list format times). */
import { z } from 'zod';
import { requireClient } from '../domain/context.js';
import { usersOf } from '../domain/users.js';
import { type ResourceSpec, clientKeyField, dataBody, defineAction, reply } from './action.js';
import { isoTime } from '../core/time-format.js';

export const userResource: ResourceSpec = {
  path: '/api/user',
  selector: 'action',
  actions: {
    list: defineAction({
      summary: 'List the users of a client',
      scope: 'client',
      schema: () => dataBody({ action: z.literal('list'), clientKey: clientKeyField() }),
      example: { data: { action: 'list', clientKey: '<CLIENT_KEY>' } },
      handle(_input, ctx) {
        const users = usersOf(ctx, requireClient(ctx).clientKey).map((u) => ({
          createTime: isoTime(u.createTime),
          changeTime: isoTime(u.changeTime),
          userKey: u.userKey,
          fullname: u.fullname ?? '',
          email: u.email ?? '',
          customKey: u.customKey ?? '',
        }));
        return reply(200, 'Users found', { users });
      },
    }),
  },
};

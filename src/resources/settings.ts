/** POST /api/settings: email notifications per client. This endpoint selects by `data.type`, not `action`. */
import { z } from 'zod';
import { requireClient } from '../domain/context.js';
import { updateNotifications } from '../domain/clients.js';
import { type ResourceSpec, clientKeyField, dataBody, defineAction, reply } from './action.js';

export const settingsResource: ResourceSpec = {
  path: '/api/settings',
  selector: 'type',
  actions: {
    email_notifications: defineAction({
      summary: 'Switch the "contract signed" and "contract approved" emails on or off for a client',
      scope: 'client',
      schema: () => dataBody({
        type: z.literal('email_notifications'),
        clientKey: clientKeyField(),
        notification: z
          .object({ approved: z.boolean().optional(), signed: z.boolean().optional() })
          .refine((n) => n.approved !== undefined || n.signed !== undefined, { message: 'Give approved, signed or both (booleans)' }),
      }),
      example: { data: { type: 'email_notifications', notification: { approved: false, signed: false } } },
      handle(input, ctx) {
        updateNotifications(ctx, requireClient(ctx), input.data.notification);
        return reply(201, 'Settings updated');
      },
    }),
  },
};

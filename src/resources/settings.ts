/** POST /api/settings: email notifications and branding per client. This endpoint selects by `data.type`, not `action`. */
import { z } from 'zod';
import { requireClient } from '../domain/context.js';
import { updateBranding, updateNotifications } from '../domain/clients.js';
import { type ResourceSpec, clientKeyField, dataBody, defineAction, reply } from './action.js';
import { okSchema } from './response-shape.js';

export const settingsResource = {
  path: '/api/settings',
  selector: 'type',
  actions: {
    email_notifications: defineAction({
      summary: 'Switch the "contract signed" and "contract approved" emails on or off for a client',
      scope: 'client',
      response: () => okSchema(201),
      schema: () =>
        dataBody({
          type: z.literal('email_notifications'),
          clientKey: clientKeyField(),
          notification: z
            .object({ approved: z.boolean().optional(), signed: z.boolean().optional() })
            .refine((n) => n.approved !== undefined || n.signed !== undefined, {
              message: 'Give approved, signed or both (booleans)',
            }),
        }),
      example: { data: { type: 'email_notifications', notification: { approved: false, signed: false } } },
      handle(input, ctx) {
        updateNotifications(ctx, requireClient(ctx), input.data.notification);
        return reply(201, 'Settings updated');
      },
    }),
    brandings: defineAction({
      summary:
        "Set a client's branding: sender, domains, explainer, logo, button colour (stored; the sandbox sends no mail)",
      scope: 'client',
      response: () => okSchema(201),
      schema: () =>
        dataBody({
          type: z.literal('brandings'),
          clientKey: clientKeyField(),
          branding: z.object({
            emailFrom: z.string().max(200).optional(),
            emailDomain: z.string().max(253).optional(),
            recipientLinkDomain: z.string().max(253).optional(),
            emailExplainer: z.string().max(10_000).optional(),
            emailLogo: z
              .string()
              .refine(
                (u) => u === '' || (URL.canParse(u) && /^https?:$/.test(new URL(u).protocol)),
                'Must be an http:// or https:// URL',
              )
              .optional(),
            emailButtonColor: z
              .string()
              .regex(/^#[0-9a-fA-F]{6}$|^#[0-9a-fA-F]{3}$/, 'Must be a hex colour like #1677ff')
              .optional(),
            recipientPageBranding: z.boolean().optional(),
          }),
        }),
      example: { data: { type: 'brandings', branding: { emailFrom: 'Acme Legal', emailButtonColor: '#1677ff' } } },
      handle(input, ctx) {
        updateBranding(ctx, requireClient(ctx), input.data.branding);
        return reply(201, 'Settings updated');
      },
    }),
  },
} satisfies ResourceSpec;

/**
 * /api/contract_event. GET: a contract's audit trail, a JSON array. POST, with no credentials: the recipient of a
 * share link has opened the contract (`status: '3'`, Seen), as the vendor's RecipientView posts it on opening
 * (docs/compatibility.md).
 */
import { z } from 'zod';
import { auditTrail } from '../domain/audit-trail.js';
import { viewByLink } from '../domain/recipient-acts.js';
import { plainResource, reply } from './action.js';
import { contractListEndpoint } from './contract-list-endpoint.js';
import { shareLinkEndpoint } from './share-link-endpoint.js';
import { isoSchema, okSchema } from './response-shape.js';

/** The audit trail's entries as auditTrail (domain/audit-trail.ts) builds them. */
export const auditEntriesSchema = () =>
  z.array(
    z.strictObject({
      id: z.number().int(),
      createTime: isoSchema(),
      status: z.number().int().meta({ description: "The step's id in GET /api/event_status (7 Archived)" }),
      email: z.string(),
      name: z.string(),
      ipInfo: z.string().meta({
        description:
          'A JSON string: `ip`, `city`, `country_name`, `timezone`, `utc_offset` (as the acting client sent it)',
      }),
      priority: z.number().int().nullable(),
      shareLink: z.string().nullable(),
      controlLink: z.string().nullable(),
      userId: z.string().nullable(),
    }),
  );

export const contractEventResource = plainResource(
  '/api/contract_event',
  contractListEndpoint({
    summary: 'The audit trail of a contract: one entry per lifecycle step, in order',
    response: auditEntriesSchema,
    list: (ctx, contract) => auditTrail(ctx, contract),
  }),
  shareLinkEndpoint({
    summary: 'The recipient of a share link has opened the contract (status 3, Seen): a view, once',
    response: () => okSchema(201, { result: z.boolean() }),
    fields: () => ({
      status: z.union([z.literal('3'), z.literal(3)], {
        error: 'Must be 3 (Seen): signing and approving have their own endpoints',
      }),
      name: z.string().optional(),
      email: z.string().optional(),
    }),
    example: { status: '3', name: 'Grace Hopper', email: 'grace@example.com' },
    act(ctx, link) {
      const seen = viewByLink(ctx, link);
      return reply(201, seen ? 'Contract seen' : 'Already seen', { result: seen });
    },
  }),
);

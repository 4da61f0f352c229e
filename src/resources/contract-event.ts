/**
 * /api/contract_event. GET: a contract's audit trail, a JSON array. POST, with no credentials: the recipient of a
 * share link has opened the contract (`status: '3'`, Seen), as the vendor's RecipientView posts it on opening
 * (docs/compatibility.md).
 */
import { z } from 'zod';
import { requireClient } from '../domain/context.js';
import { findContract } from '../domain/contracts.js';
import { auditTrail } from '../domain/audit-trail.js';
import { viewByLink } from '../domain/recipient-acts.js';
import { throughShareLink } from '../domain/share-links.js';
import { type PlainResource, clientKeyField, defineEndpoint, keyField, reply } from './action.js';
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

export const contractEventResource = {
  path: '/api/contract_event',
  endpoints: [
    defineEndpoint({
      method: 'GET',
      summary: 'The audit trail of a contract: one entry per lifecycle step, in order',
      scope: 'client',
      response: auditEntriesSchema,
      // An empty contractKey answers `[]`: a new contract editor asks before its contract exists
      // (docs/compatibility.md, "Empty keys").
      schema: () => z.object({ contractKey: z.string(), clientKey: clientKeyField() }),
      example: { contractKey: '<CONTRACT_KEY>', clientKey: '<CLIENT_KEY>' },
      handle(input, ctx) {
        if (input.contractKey.trim() === '') return { status: 200, body: [] };
        return { status: 200, body: auditTrail(ctx, findContract(ctx, requireClient(ctx), input.contractKey)) };
      },
    }),
    defineEndpoint({
      method: 'POST',
      summary: 'The recipient of a share link has opened the contract (status 3, Seen): a view, once',
      scope: 'public',
      response: () => okSchema(201, { result: z.boolean() }),
      schema: () =>
        z.object({
          shareLink: keyField(),
          status: z.union([z.literal('3'), z.literal(3)], {
            error: 'Must be 3 (Seen): signing and approving have their own endpoints',
          }),
          name: z.string().optional(),
          email: z.string().optional(),
        }),
      example: { shareLink: '<RECIPIENT_KEY>', status: '3', name: 'Grace Hopper', email: 'grace@example.com' },
      handle(input, ctx) {
        const seen = throughShareLink(ctx, input.shareLink, (link) => viewByLink(ctx, link));
        return reply(201, seen ? 'Contract seen' : 'Already seen', { result: seen });
      },
    }),
  ],
} satisfies PlainResource;

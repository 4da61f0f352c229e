/** GET /api/contract_event: a contract's audit trail, a JSON array [C:document-timeline-block.tsx]. */
import { z } from 'zod';
import { requireClient } from '../domain/context.js';
import { findContract } from '../domain/contracts.js';
import { auditTrail } from '../domain/audit-trail.js';
import { type PlainResource, clientKeyField, defineEndpoint } from './action.js';
import { isoSchema } from './response-shape.js';

/** The audit trail's entries as auditTrail (domain/audit-trail.ts) builds them. */
const auditEntriesSchema = () =>
  z.array(
    z.strictObject({
      id: z.number().int(),
      createTime: isoSchema(),
      status: z.number().int().meta({ description: "The step's id in GET /api/event_status (7 Archived)" }),
      email: z.string(),
      name: z.string(),
      ipInfo: z.string(),
      priority: z.number().int().nullable(),
      shareLink: z.string().nullable(),
      controlLink: z.string().nullable(),
      userId: z.string().nullable(),
    }),
  );

export const contractEventResource: PlainResource = {
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
  ],
};

/** GET /api/event_status: the contract status dictionary, a JSON array [C:contract-list.tsx]. */
import { z } from 'zod';
import { eventStatuses } from '../domain/event-status.js';
import { CONTRACT_STATUSES } from '../core/vocabulary.js';
import { type PlainResource, defineEndpoint } from './action.js';

export const eventStatusResource = {
  path: '/api/event_status',
  endpoints: [
    defineEndpoint({
      method: 'GET',
      summary: 'The contract statuses with their numeric ids and colours',
      scope: 'authenticated',
      response: () =>
        z.array(z.strictObject({ id: z.number().int(), name: z.enum(CONTRACT_STATUSES), color: z.string() })),
      schema: () => z.object({ clientKey: z.string().optional() }),
      example: {},
      handle() {
        return { status: 200, body: eventStatuses() };
      },
    }),
  ],
} satisfies PlainResource;

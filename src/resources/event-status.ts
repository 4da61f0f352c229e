/** GET /api/event_status: the contract status dictionary, a JSON array [C:contract-list.tsx]. */
import { z } from 'zod';
import { eventStatuses } from '../domain/event-status.js';
import { type PlainResource, defineEndpoint } from './action.js';

export const eventStatusResource: PlainResource = {
  path: '/api/event_status',
  endpoints: [
    defineEndpoint({
      method: 'GET',
      summary: 'The contract statuses with their numeric ids and colours',
      scope: 'authenticated',
      schema: () => z.object({ clientKey: z.string().optional() }),
      example: {},
      handle() {
        return { status: 200, body: eventStatuses() };
      },
    }),
  ],
};

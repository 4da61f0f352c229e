/**
 * What the sandbox captured: the outbox, the webhook delivery log (docs/webhooks.md) and the request journal.
 * Filters are query parameters; scoped, each shows only the tenant's.
 */
import { deliveryQuery, emailQuery, journalQuery } from '../control/schemas.js';
import { delivery, email, journalEntry } from './examples.js';
import { type ControlTable, reshaped, wrappedIn } from './operation.js';
import { z } from 'zod';

export const capturedOps = {
  'outbox.list': {
    tool: 'list_emails',
    route: 'GET /emails',
    summary: 'The outbox: emails the service would have sent (signing and approval requests, signed/approved notices)',
    query: emailQuery,
    answer: { emails: [email] },
    request: (filter = {}) => ({ query: { ...filter } }),
    ...wrappedIn('emails', (r, { control, tenant }) => control.outbox.list(r.query, tenant)),
  },
  'outbox.clear': {
    tool: 'clear_emails',
    route: 'DELETE /emails',
    summary: 'Empty the outbox (scoped: the tenant’s emails)',
    answer: { cleared: 3 },
    ...wrappedIn('cleared', (_r, { control, tenant }) => control.outbox.clear(tenant)),
  },
  'webhooks.deliveries': {
    tool: 'list_deliveries',
    route: 'GET /webhook-deliveries',
    summary: 'The webhook delivery log: every delivery with its attempts and next retry (docs/webhooks.md)',
    query: deliveryQuery,
    answer: { deliveries: [delivery] },
    request: (filter = {}) => ({ query: { ...filter } }),
    ...wrappedIn('deliveries', (r, { control, tenant }) => control.webhooks.deliveries(r.query, tenant)),
  },
  'webhooks.delivery': {
    tool: 'get_delivery',
    route: 'GET /webhook-deliveries/{id}',
    summary: 'One webhook delivery',
    answer: delivery,
    request: (id) => ({ params: { id } }),
    handle: (r, { control, tenant }) => control.webhooks.delivery(r.params.id!, tenant),
  },
  'webhooks.redeliver': {
    tool: 'redeliver',
    route: 'POST /webhook-deliveries/{id}/redeliver',
    summary: 'Send a delivery again at once, with the same webhook-id',
    answer: {
      ...delivery,
      attempts: [
        ...delivery.attempts,
        { at: delivery.createdAt, trigger: 'redeliver', statusCode: 200, durationMs: 2.1 },
      ],
    },
    request: (id) => ({ params: { id } }),
    handle: (r, { control, tenant }) => control.webhooks.redeliver(r.params.id!, tenant),
  },
  requests: {
    tool: 'list_requests',
    route: 'GET /requests',
    summary: 'The request journal: what was asked and answered, secrets redacted',
    description:
      'Oldest first; at most the journal capacity (default 1000, `--journal-limit`) entries are kept. Bodies over 64 KiB are kept as `{"truncated": true, "bytes": N}`. Scoped: only the tenant\'s requests (its /api calls and its scoped control calls).',
    query: journalQuery,
    answer: { requests: [journalEntry], count: 1, capacity: 1000 },
    request: (filter = {}) => ({ query: { ...filter } }),
    ...reshaped(
      async (r, { control, tenant }) => {
        await control.journal.ready();
        const { requests, capacity } = control.journal.list(r.query, tenant);
        return { requests, count: requests.length, capacity };
      },
      (answer) => answer.requests,
    ),
  },
  clearRequests: {
    tool: 'clear_requests',
    route: 'DELETE /requests',
    summary: "Empty the journal, or only one platform's entries",
    query: () => z.object({ apiKey: z.string().optional() }),
    answer: { cleared: 'all' },
    request: (options = {}) => ({ query: { apiKey: options.apiKey } }),
    ...reshaped(
      (r, { control, tenant }) => control.journal.clear(r.query as { apiKey?: string }, tenant),
      () => undefined,
    ),
  },
} satisfies Partial<ControlTable>;

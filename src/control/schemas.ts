/**
 * What each control operation takes (README.md, "The control API"), validated once by the operation itself,
 * whichever edge the call came through: a /__sandbox route, the in-process library, or a scenario step. The OpenAPI
 * document shows the same schemas (openapi/control.ts).
 */
import { z } from 'zod';
import { rateLimit } from '../core/rate-limit.js';
import { CONTRACT_EVENT_TYPES } from '../core/vocabulary.js';
import { lazy } from '../core/lazy.js';
import { apiKeyName } from '../core/schemas.js';
import { faultSpec } from '../api-faults/spec.js';
import { receiverFaultSpec } from '../webhooks/receiver-fault-spec.js';
import { REQUEST_KINDS } from '../journal/journal.js';

export const advanceBody = lazy(() =>
  z.object({
    by: z.union(
      [z.number().min(0), z.string().min(1)],
      'Required: a duration like "90s", "30m", "2h", "1d" or a number of seconds',
    ),
  }),
);

export const setBody = lazy(() =>
  z.object({ to: z.union([z.string().min(1), z.number()], 'Required: an ISO 8601 time') }),
);

export const resetBody = lazy(() => z.object({ apiKey: apiKeyName().optional() }));

export const expireBody = lazy(() => z.object({ token: z.string().min(1).optional() }));

export const platformBody = lazy(() =>
  z
    .object({
      apiKey: apiKeyName().optional(),
      secret: z.string().min(1).max(500).optional(),
      name: z.string().max(200).optional(),
      rateLimit: rateLimit()
        .optional()
        .describe('A quota like a test mode for this tenant, e.g. "10/min" (docs/readiness.md)'),
      clock: z
        .enum(['frozen', 'real'], 'Must be "frozen" or "real"')
        .optional()
        .describe('Gives the tenant its own clock: everything of the tenant follows it (docs/library.md)'),
      start: z.iso
        .datetime({ offset: true, error: 'Must be an ISO 8601 time like 2026-03-01T09:00:00Z' })
        .optional()
        .describe("Where the tenant's own clock starts (default: the sandbox clock's time); needs clock"),
    })
    .refine((b) => b.start === undefined || b.clock !== undefined, {
      message: 'start sets where the tenant\'s own clock starts: give clock ("frozen" or "real") too',
      path: ['start'],
    }),
);

export const actBody = lazy(() =>
  z.object({
    signature: z
      .string('A text signature, or an image as a base64 data URI')
      .max(2_000_000, 'At most 2,000,000 characters')
      .optional(),
  }),
);

/** One fault, or several as `{"faults": [...]}`. */
export const faultList = lazy(() => z.strictObject({ faults: z.array(faultSpec()).min(1) }));

/** Receiver faults, several at once: `{"faults": [...]}`. */
export const receiverFaultList = lazy(() => z.strictObject({ faults: z.array(receiverFaultSpec()).min(1) }));

export const loadBody = lazy(() =>
  z
    .strictObject({
      name: z.string().min(1).optional(),
      yaml: z.string().min(1).optional(),
    })
    .refine((b) => (b.name === undefined) !== (b.yaml === undefined), {
      message: 'Give exactly one of name (a bundled scenario) or yaml (scenario text)',
    }),
);

export const journalQuery = lazy(() =>
  z.object({
    kind: z
      .enum(REQUEST_KINDS, `Must be one of ${REQUEST_KINDS.join(', ')}`)
      .optional()
      .describe('Only requests through this door: api (/api), control (/__sandbox) or page (the recipient page)'),
    path: z.string().optional().describe('Exact path, or a prefix ending in * (/api/*)'),
    method: z.string().optional(),
    action: z.string().optional().describe('data.action, data.type or the top-level action of the request'),
    status: z.union([z.string(), z.number().int()]).optional().describe('A status (404) or a class (4xx)'),
    since: z.string().optional().describe('Sandbox time (ISO 8601), or an entry id: only later entries'),
    apiKey: z.string().optional().describe("Only this platform's requests"),
    limit: z.coerce.number().int().min(1).max(100_000).optional().describe('The newest N matches'),
  }),
);

export const deliveryQuery = lazy(() =>
  z.object({
    webhookKey: z.string().min(1).optional(),
    event: z.enum(CONTRACT_EVENT_TYPES, `Must be one of ${CONTRACT_EVENT_TYPES.join(', ')}`).optional(),
    status: z.enum(['pending', 'delivered', 'failed'], 'Must be pending, delivered or failed').optional(),
    contractKey: z.string().min(1).optional(),
    clientKey: z.string().min(1).optional(),
  }),
);

export const emailQuery = lazy(() =>
  z.object({
    to: z.string().optional(),
    contractKey: z.string().optional(),
    recipientKey: z.string().optional(),
    kind: z.string().optional(),
  }),
);

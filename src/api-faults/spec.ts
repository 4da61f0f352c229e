/** The fault format: one definition for scenarios (`faults:`, `addFaults`), POST /__sandbox/faults and the library. */
import { z } from 'zod';
import { lazy } from '../core/lazy.js';
import { parseDuration } from '../core/duration.js';
import { duration, glob, keyPattern, optionalName, statusCode } from '../core/schemas.js';

/**
 * What a connection fault does to the connection instead of answering (docs/scenarios.md, "Connection faults"):
 * reset it, close it with no answer, break the chunked body of the real answer mid-way, or send random bytes and close.
 */
export const CONNECTION_FAULTS = ['reset', 'empty', 'malformed-chunk', 'garbage'] as const;
export type ConnectionFault = (typeof CONNECTION_FAULTS)[number];

/** The longest `dribble`: wall time a connection is held, so a typo (`2d` for `2s`) cannot hold it for days. */
export const MAX_DRIBBLE_MS = 10 * 60_000;

export const faultSpec = lazy(() =>
  z
    .strictObject({
      id: optionalName('Names the fault in the X-Sandbox-Fault header and the fault list.'),
      match: z
        .strictObject({
          path: glob().optional().meta({ description: 'API path glob, e.g. /api/contract or /api/*.' }),
          action: optionalName('The operation: data.action, data.type, or the token body’s action.'),
          client: keyPattern()
            .optional()
            .meta({ description: 'Only requests naming this clientKey in data.clientKey.' }),
        })
        .default({})
        .meta({ description: 'Which /api requests the fault hits. {} hits all of them.' }),
      status: statusCode()
        .optional()
        .meta({ description: 'Answer with this HTTP status instead (500, 502, 503, 429…).' }),
      retryAfter: z
        .number()
        .int()
        .min(0)
        .optional()
        .meta({ description: 'Seconds for the Retry-After header (default 1 for 429 and 503).' }),
      message: z.string().min(1).optional().meta({ description: 'The error body’s message.' }),
      latency: duration().optional().meta({ description: 'Delay the answer by this much real (wall-clock) time.' }),
      connection: z.enum(CONNECTION_FAULTS).optional().meta({
        description:
          'Break the connection instead of answering: reset (TCP reset), empty (closed with no answer), malformed-chunk (the real answer, its chunked body broken mid-way), garbage (random bytes, then closed).',
      }),
      dribble: duration().optional().meta({
        description:
          'Send the real answer slowly: its headers at once, its body in 10 pieces spread over this much real (wall-clock) time, at most 10m.',
      }),
      times: z.number().int().min(1).optional().meta({ description: 'Hit this many matching requests, then stop.' }),
      after: z.number().int().min(0).optional().meta({ description: 'Let this many matching requests through first.' }),
      probability: z
        .number()
        .min(0)
        .max(1)
        .optional()
        .meta({ description: 'Hit each matching request with this probability (seeded: runs repeat exactly).' }),
      for: duration().optional().meta({ description: 'Remove the fault after this much sandbox time.' }),
    })
    .superRefine(checkFault)
    .meta({
      description:
        'A fault injected into the /api: an error status, added latency, a broken connection or a slow body.',
    }),
);

export type FaultSpec = z.infer<ReturnType<typeof faultSpec>>;

interface FaultFields {
  status?: number | undefined;
  retryAfter?: number | undefined;
  message?: string | undefined;
  latency?: string | number | undefined;
  connection?: ConnectionFault | undefined;
  dribble?: string | number | undefined;
}

/** What the fields cannot say alone: a fault does something, and its parts go together. */
function checkFault(fault: FaultFields, ctx: z.RefinementCtx): void {
  const issue = (path: string[], message: string) => ctx.addIssue({ code: 'custom', path, message });
  const { status, latency, connection, dribble } = fault;
  if (status === undefined && latency === undefined && connection === undefined && dribble === undefined)
    issue([], 'expected status (an HTTP status to answer with), latency, connection or dribble');
  // A broken connection answers nothing: no status, message or slow body goes with it.
  if (connection !== undefined)
    for (const key of ['status', 'retryAfter', 'message', 'dribble'] as const)
      if (fault[key] !== undefined) issue([key], `${key} cannot go with connection: nothing is answered`);
  // A refusal leaves at once (after any latency); dribble slows the answer the route gives.
  if (dribble !== undefined && status !== undefined)
    issue(['dribble'], 'dribble cannot go with status: it slows the real answer (use latency to delay a refusal)');
  if (dribble !== undefined && (parseDuration(dribble) ?? 0) > MAX_DRIBBLE_MS)
    issue(['dribble'], 'Too long: at most 10m of real time');
  if (status !== undefined && status < 400) issue(['status'], 'expected an error status (400–599)');
}

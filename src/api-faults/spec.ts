/** The fault format: one definition for scenarios (`faults:`, `addFaults`), POST /__sandbox/faults and the library. */
import { z } from 'zod';
import { lazy } from '../core/lazy.js';
import { duration, glob, keyPattern, statusCode } from '../core/schemas.js';

export const faultSpec = lazy(() =>
  z
    .strictObject({
      id: z
        .string()
        .min(1)
        .optional()
        .meta({ description: 'Names the fault in the X-Sandbox-Fault header and the fault list.' }),
      match: z
        .strictObject({
          path: glob().optional().meta({ description: 'API path glob, e.g. /api/contract or /api/*.' }),
          action: z
            .string()
            .min(1)
            .optional()
            .meta({ description: 'The operation: data.action, data.type, or the token body’s action.' }),
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
    .superRefine((fault, ctx) => {
      if (fault.status === undefined && fault.latency === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: [],
          message: 'expected status (an HTTP status to answer with), latency, or both',
        });
      }
      if (fault.status !== undefined && fault.status < 400) {
        ctx.addIssue({ code: 'custom', path: ['status'], message: 'expected an error status (400–599)' });
      }
    })
    .meta({ description: 'A fault injected into the /api: an error status, added latency, or both.' }),
);

export type FaultSpec = z.infer<ReturnType<typeof faultSpec>>;

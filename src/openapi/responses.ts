/**
 * JSON Schema and response objects shared by the operations of the OpenAPI document (document.ts): zod schemas
 * turned into JSON Schema 2020-12, success responses by status, error responses and the credentials an /api
 * operation takes.
 */
import { z } from 'zod';
import { type QueueBounds, RENDER_QUEUE } from '../render/queue.js';

export type Json = Record<string, unknown>;

const ERROR_STATUSES: Record<string, string> = {
  '400': 'Body not JSON, no `data` wrapper, unknown action, or validation failure (every failing field in `errors`)',
  '401': 'No credentials, unknown, revoked or expired token (`Token expired`), wrong API key or secret',
  '403': 'An invalid API key, a client token used for another client, or a platform-only operation',
  '404': 'Unknown key, or a key of another client or platform',
  '405': 'A method other than POST',
  '409': 'State conflict: archived contract, recipient acting out of turn',
  '413': 'Body over the size limit',
  '415': 'Content-Type is not JSON',
  '429': 'Only when injected on purpose (POST /__sandbox/faults): too many requests, with Retry-After',
  '500': 'Only when injected on purpose (POST /__sandbox/faults); a sandbox bug also answers a JSON 500',
  '503': 'Only when injected on purpose (POST /__sandbox/faults): service unavailable, with Retry-After',
};

/** A zod schema as JSON Schema 2020-12 (the dialect of OpenAPI 3.1), as the caller sends it. */
export function jsonSchema(schema: z.ZodType): Json {
  const out = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  delete out.$schema;
  return out;
}

/** A zod schema as JSON Schema 2020-12, as the sandbox sends it (responses). */
export function outputSchema(schema: z.ZodType): Json {
  const out = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  delete out.$schema;
  return out;
}

/** The HTTP statuses a success schema answers: its `code` (string or number), 201 for the token bodies, 200 for arrays. */
export function statusesOf(schema: Json): string[] {
  if (schema.type === 'array') return ['200'];
  const variants = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (variants) return [...new Set(variants.flatMap(statusesOf))];
  const code = (schema.properties as Record<string, Json> | undefined)?.code;
  return code?.const !== undefined ? [String(code.const)] : ['201'];
}

/** Success responses by status: each status's body is any of the schemas of the operations that answer it. */
export function successResponses(schemas: { title: string; schema: Json }[]): Json {
  const byStatus = new Map<string, Json[]>();
  for (const { title, schema } of schemas) {
    for (const status of statusesOf(schema))
      byStatus.set(status, [...(byStatus.get(status) ?? []), { title, ...schema }]);
  }
  const out: Json = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a.localeCompare(b))) {
    out[status] = {
      description: status === '200' ? 'Found or done' : 'Created or changed',
      content: { 'application/json': { schema: list.length === 1 ? list[0] : { anyOf: list } } },
    };
  }
  return out;
}

export const API_SECURITY: Json[] = [{ bearerToken: [] }, { apiKeyHeader: [] }, { sendforsignKey: [] }];

/** The header every 429 and 503 of /api carries: an injected fault's (`retryAfter`, default 1), the render queue's. */
const RETRY_AFTER: Json = {
  'Retry-After': {
    description: 'Seconds to wait before trying again',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
};

const ERROR_BODY: Json = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

export function errorResponses(only?: string[]): Json {
  const out: Json = {};
  for (const [status, description] of Object.entries(ERROR_STATUSES)) {
    if (only && !only.includes(status)) continue;
    out[status] = {
      description,
      ...(status === '429' || status === '503' ? { headers: RETRY_AFTER } : {}),
      content: ERROR_BODY,
    };
  }
  return out;
}

/**
 * The 503 of an operation whose work goes through the render queue (render/queue.ts, docs/documents.md "Work
 * limits"), said with the queue's own bounds: it replaces the 503 of `errorResponses` for such operations.
 */
export function renderBusyResponse(bounds: QueueBounds = RENDER_QUEUE): Json {
  return {
    '503': {
      description:
        `The document renderer is busy: it draws ${bounds.concurrency} document at a time and ${bounds.waiting} more ` +
        'requests wait their turn; one past that is refused at once (`The document renderer is busy: …`) with ' +
        'Retry-After, the seconds the jobs ahead take (at least 1). Also when injected on purpose (POST /__sandbox/faults)',
      headers: RETRY_AFTER,
      content: ERROR_BODY,
    },
  };
}

/** An /api answer with any other status comes only from a fault injected on purpose (`status` of POST /__sandbox/faults). */
export const INJECTED: Json = {
  default: {
    description: 'Any other status, only when injected on purpose (POST /__sandbox/faults `status`, e.g. 502)',
    content: ERROR_BODY,
  },
};

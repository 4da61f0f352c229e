/**
 * The API-faults middleware, mounted on /api/* (known paths or not): what runs on every /api request first. It asks the fault registry
 * (api-faults/registry.ts) what the request meets, waits out the latency and answers with the fault's refusal.
 *
 * Latency is real time, not sandbox time: it models a slow network, which a client experiences in wall time.
 * It is the one place besides the clock that arms a wall-clock timer, on purpose.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { ApiFaults } from '../api-faults/registry.js';
import type { RequestMarks } from '../domain/platforms.js';
import { readCredentials } from '../core/credentials.js';
import { readBodyText } from './body.js';

/** Bodies are read within `maxBodyBytes`; a refusal is thrown as the fault's ApiError, rendered like any other. */
export interface FaultMiddlewareOptions {
  maxBodyBytes: number;
  apiKeyHeader: string;
  /** The tenant of a request (domain/platforms.ts `requestTenant`), for faults set for one tenant. */
  tenantOf(marks: RequestMarks): string | undefined;
}

export function faultMiddleware(faults: ApiFaults, options: FaultMiddlewareOptions): MiddlewareHandler {
  // Not an async function: with no fault set (the common case) the request goes on without a promise of its own.
  return (c, next) => (faults.size > 0 ? apply(c, faults, options).then(next) : next());
}

async function apply(c: Context, faults: ApiFaults, options: FaultMiddlewareOptions): Promise<void> {
  const { maxBodyBytes, tenantOf } = options;
  const interest = faults.interest(c.req.path);
  if (!interest.any) return;
  const body = interest.needsBody || interest.needsTenant ? await peekBody(c, maxBodyBytes) : undefined;
  // A fault set for a tenant hits only that tenant's requests (its credentials, or the share link it names).
  const credentials = interest.needsTenant ? readCredentials(c.req.raw.headers, options.apiKeyHeader) : undefined;
  const tenant = credentials
    ? tenantOf({ authorization: credentials.authorization, apiKey: credentials.apiKey, body, query: c.req.query() })
    : undefined;
  const { latencyMs, hit, refusal } = faults.decide(c.req.path, body, tenant);
  if (hit !== undefined) c.header('X-Sandbox-Fault', hit);
  if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
  if (refusal) throw refusal;
}

/**
 * The body as JSON, or `undefined` when it is not JSON. Read through the shared body reader, which keeps the text
 * for the router, so the body is read once. Size and cut-off refusals propagate: the router would answer the same.
 */
export async function peekBody(c: Context, maxBodyBytes: number): Promise<unknown> {
  const text = await readBodyText(c, maxBodyBytes);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

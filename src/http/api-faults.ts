/**
 * The API-faults middleware, mounted on /api/* (known paths or not): what runs on every /api request first. It asks the fault registry
 * (api-faults/registry.ts) what the request meets, waits out the latency and answers with the fault's refusal.
 *
 * Latency is real time, not sandbox time: it models a slow network, which a client experiences in wall time.
 * It is the one place besides the clock that arms a wall-clock timer, on purpose.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { ApiFaults } from '../api-faults/registry.js';
import type { RequestEnv } from '../domain/request-facts.js';
import { readRequestBody } from './body.js';

/** Bodies are read within `maxBodyBytes`; a refusal is thrown as the fault's ApiError, rendered like any other. */
export interface FaultMiddlewareOptions {
  maxBodyBytes: number;
}

export function faultMiddleware(faults: ApiFaults, options: FaultMiddlewareOptions): MiddlewareHandler<RequestEnv> {
  // Not an async function: with no fault set (the common case) the request goes on without a promise of its own.
  return (c, next) => (faults.size > 0 ? apply(c, faults, options).then(next) : next());
}

async function apply(c: Context<RequestEnv>, faults: ApiFaults, options: FaultMiddlewareOptions): Promise<void> {
  const interest = faults.interest(c.req.path);
  if (!interest.any) return;
  // Read through the shared body reader (the travel object's body, read once; the route finds it). Size and cut-off
  // refusals propagate: the route would answer the same.
  const body = interest.needsBody || interest.needsTenant ? await readRequestBody(c, options.maxBodyBytes) : undefined;
  // A fault set for a tenant hits only that tenant's requests (its credentials, or the share link it names).
  const tenant = interest.needsTenant ? body?.tenant : undefined;
  const { latencyMs, hit, refusal } = faults.decide(c.req.path, body, tenant);
  if (hit !== undefined) c.header('X-Sandbox-Fault', hit);
  if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
  if (refusal) throw refusal;
}

/**
 * The `rate-limit` stage, on /api/* after the API faults (docs/readiness.md, "Quotas like a test mode"): takes one
 * request from the tenant's bucket (rate-limits/), answers 429 in the service's error format with Retry-After once it
 * is empty, and while a limit applies puts X-RateLimit-Limit, -Remaining and -Reset on the answer. A request no tenant
 * can be told for (no or unknown credentials) is not counted.
 */
import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../core/errors.js';
import type { RequestEnv } from '../domain/request-facts.js';
import type { RateLimits } from '../rate-limits/rate-limits.js';
import { readRequestBody } from './body.js';

export function rateLimitMiddleware(
  limits: RateLimits,
  options: { maxBodyBytes: number },
): MiddlewareHandler<RequestEnv> {
  return async (c, next) => {
    if (!limits.on) return next();
    const facts = c.var.request;
    const { authorization, apiKey } = facts.credentials;
    // The quota is the caller's (one bucket per API key, docs/readiness.md): the tenant its credentials name, on a
    // share-link operation too. Without credentials, a POST's body may name one (a token create's API key, a share
    // link): read it then (the travel object keeps it for the route).
    const tenant =
      facts.arrivalTenant ??
      (c.req.method === 'POST' && authorization === undefined && apiKey === undefined
        ? (await readRequestBody(c, options.maxBodyBytes)).tenant
        : undefined);
    const decision = tenant !== undefined ? limits.take(tenant) : undefined;
    if (!decision) return next();
    const headers = {
      'X-RateLimit-Limit': String(decision.limit),
      'X-RateLimit-Remaining': String(decision.remaining),
      'X-RateLimit-Reset': String(decision.resetAt),
    };
    if (!decision.allowed)
      throw new ApiError(
        429,
        `Too many requests: the sandbox's rate limit is ${decision.spec.text} per API key; retry after ${decision.retryAfter} second${decision.retryAfter === 1 ? '' : 's'}`,
        undefined,
        { ...headers, 'Retry-After': String(decision.retryAfter) },
      );
    for (const [name, value] of Object.entries(headers)) c.header(name, value);
    return next();
  };
}

/**
 * The rate-limit middleware, mounted on /api/* after the API faults (docs/readiness.md, "Quotas like a test mode"):
 * takes one request from the tenant's bucket (rate-limits/), answers 429 in the service's error format with
 * Retry-After once it is empty, and while a limit applies puts X-RateLimit-Limit, -Remaining and -Reset on the answer.
 * A request no tenant can be told for (no or unknown credentials) is not counted.
 */
import type { MiddlewareHandler } from 'hono';
import { readCredentials } from '../core/credentials.js';
import { ApiError } from '../core/errors.js';
import type { RequestMarks } from '../domain/platforms.js';
import type { RateLimits } from '../rate-limits/rate-limits.js';
import { peekBody } from './api-faults.js';

export interface RateLimitMiddlewareOptions {
  maxBodyBytes: number;
  apiKeyHeader: string;
  /** The tenant of a request (domain/platforms.ts `requestTenant`). */
  tenantOf(marks: RequestMarks): string | undefined;
}

export function rateLimitMiddleware(limits: RateLimits, options: RateLimitMiddlewareOptions): MiddlewareHandler {
  return async (c, next) => {
    if (!limits.on) return next();
    const { authorization, apiKey } = readCredentials(c.req.raw.headers, options.apiKeyHeader);
    // A token create names its platform in the body only: read it then (the body reader keeps it for the router).
    const tenant =
      options.tenantOf({ authorization, apiKey, query: c.req.query() }) ??
      (c.req.method === 'POST' && authorization === undefined && apiKey === undefined
        ? options.tenantOf({ body: await peekBody(c, options.maxBodyBytes) })
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

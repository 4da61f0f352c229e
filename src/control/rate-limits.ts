/** Rate limits as control operations (docs/readiness.md, "Quotas like a test mode"): read and set, scoped or not. */
import { z } from 'zod';
import { type RateLimitSpec, rateLimit } from '../core/rate-limit.js';
import { parseWith } from '../core/validation.js';
import type { RateLimitView, RateLimits } from '../rate-limits/rate-limits.js';
import type { Tenant } from './deps.js';
import { lazy } from '../core/lazy.js';

export const rateLimitBody = lazy(() =>
  z.strictObject({
    rateLimit: rateLimit()
      .nullable()
      .meta({ description: 'Requests per second, minute or hour per API key ("10/min"), or null to turn it off.' }),
  }),
);

export class RateLimitControl {
  constructor(private readonly limits: RateLimits) {}

  /** The limit that applies: the tenant's own, else the sandbox's. */
  get(tenant?: Tenant): RateLimitView {
    return this.limits.view(tenant?.platformId);
  }

  /** Sets the sandbox's limit, or the tenant's (scoped); null turns it off (for a tenant: off whatever the sandbox's). */
  set(input: unknown, tenant?: Tenant, source = 'control'): RateLimitView {
    const { rateLimit: spec } = parseWith(rateLimitBody(), input);
    this.limits.set(spec, source, tenant?.platformId);
    return this.get(tenant);
  }

  /** A scenario's limit while it is loaded (`rateLimit:`), under its cause; `clear` removes it when it unloads. */
  apply(spec: RateLimitSpec, source: string, tenant?: Tenant): void {
    this.limits.set(spec, source, tenant?.platformId);
  }

  clear(source: string, tenant?: Tenant): void {
    this.limits.clear(source, tenant?.platformId);
  }
}

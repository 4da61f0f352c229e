/**
 * Rate limits like a test mode (docs/readiness.md): a token bucket per API key (per tenant), on the tenant's clock,
 * so a frozen clock refills only when it is advanced. Off unless set: for the whole sandbox (`--rate-limit`, a
 * scenario's `rateLimit`, the control API) or for one tenant (`POST /__sandbox/platforms {"rateLimit"}`, the scoped
 * control API, a scenario loaded for it); a tenant's own setting wins. Each setting names its source, so a scenario's
 * goes when it unloads. Settings outlive resets (like API faults); buckets start full again.
 */
import type { EventBus } from '../core/event-bus.js';
import type { TenantClocks } from '../core/tenant-clocks.js';
import type { RateLimitSpec } from '../core/rate-limit.js';

interface Setting {
  /** The tenant it is for; undefined: the whole sandbox. */
  platformId: string | undefined;
  /** null: limits off (for a tenant while the sandbox has one). */
  spec: RateLimitSpec | null;
  source: string;
}

interface Bucket {
  tokens: number;
  /** Sandbox time (the tenant's clock) the tokens were counted at. */
  atMs: number;
  /** The limit the bucket was filled for: a new limit starts a full bucket. */
  spec: RateLimitSpec;
}

/** What a request meets: let through or not, and what the X-RateLimit-* headers say. */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds (sandbox time) when the bucket is full again. */
  resetAt: number;
  /** When refused: seconds until one request is allowed again (at least 1). */
  retryAfter: number;
  spec: RateLimitSpec;
}

/** A rate limit as the control API shows it. */
export interface RateLimitView {
  /** `10/min`, or null when off. */
  rateLimit: string | null;
  /** Where it was set: `options` (--rate-limit), `control`, `scenario:<name>`; absent when off and never set. */
  source?: string;
  /** `tenant` when it is the tenant's own setting, `sandbox` when the sandbox's applies. */
  scope?: 'tenant' | 'sandbox';
}

export class RateLimits {
  private readonly settings: Setting[] = [];
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly clocks: TenantClocks,
    bus: EventBus,
    initial?: RateLimitSpec,
  ) {
    if (initial) this.settings.push({ platformId: undefined, spec: initial, source: 'options' });
    bus.on('sandbox.reset', (e) => {
      if (e.platformId === undefined) this.buckets.clear();
      else this.buckets.delete(e.platformId);
    });
  }

  /** Whether any limit could apply (the middleware's quick way out). */
  get on(): boolean {
    return this.settings.some((s) => s.spec !== null);
  }

  /** Sets (or with null turns off) the limit of a tenant or the sandbox, replacing the same source's setting. */
  set(spec: RateLimitSpec | null, source: string, platformId?: string): void {
    this.clear(source, platformId);
    this.settings.push({ platformId, spec, source });
  }

  /** Removes the settings of a source (a scenario unloading), for one tenant or the sandbox. */
  clear(source: string, platformId?: string): void {
    for (let i = this.settings.length - 1; i >= 0; i--) {
      const s = this.settings[i]!;
      if (s.source === source && s.platformId === platformId) this.settings.splice(i, 1);
    }
  }

  /** The setting that applies to a tenant: its own newest, else the sandbox's newest. */
  private settingFor(platformId: string | undefined): Setting | undefined {
    const newest = (test: (s: Setting) => boolean) => this.settings.findLast(test);
    return (
      (platformId !== undefined ? newest((s) => s.platformId === platformId) : undefined) ??
      newest((s) => s.platformId === undefined)
    );
  }

  view(platformId?: string): RateLimitView {
    const s = this.settingFor(platformId);
    if (!s) return { rateLimit: null };
    return {
      rateLimit: s.spec?.text ?? null,
      source: s.source,
      scope: s.platformId !== undefined ? 'tenant' : 'sandbox',
    };
  }

  /** Takes one request from the tenant's bucket; undefined when no limit applies to it. */
  take(platformId: string): RateDecision | undefined {
    const spec = this.settingFor(platformId)?.spec;
    if (!spec) return undefined;
    const now = this.clocks.of(platformId).now();
    const perMs = spec.limit / spec.periodMs;
    let bucket = this.buckets.get(platformId);
    if (!bucket || bucket.spec !== spec) {
      bucket = { tokens: spec.limit, atMs: now, spec };
      this.buckets.set(platformId, bucket);
    }
    // A clock set back refills nothing: the bucket counts from the new time.
    bucket.tokens = Math.min(spec.limit, bucket.tokens + Math.max(0, now - bucket.atMs) * perMs);
    bucket.atMs = now;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    return {
      allowed,
      limit: spec.limit,
      remaining: Math.floor(bucket.tokens),
      resetAt: Math.ceil(Math.round(now + (spec.limit - bucket.tokens) / perMs) / 1000),
      retryAfter: allowed ? 0 : Math.max(1, Math.ceil(Math.round((1 - bucket.tokens) / perMs) / 1000)),
      spec,
    };
  }
}

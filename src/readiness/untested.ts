/**
 * The `untested-…` findings (docs/readiness.md): each hard case the run never exercised, as information, with the
 * bundled scenario or fault that exercises it. The `go-live` scenario exercises them all in one run (the formats say
 * so once).
 */
import type { Check, Indexed } from './check.js';
import type { AttemptSeen, AttemptShaping } from './observed.js';
import { saysTokenDead } from './tokens.js';

interface HardCase {
  id: string;
  what: string;
  how: string;
  tried(o: Indexed): boolean;
}

const anyAttempt = (o: Indexed, test: (a: AttemptSeen) => boolean) => o.deliveries.some((d) => d.attempts.some(test));
const shapedBy = (kind: AttemptShaping) => (o: Indexed) => anyAttempt(o, (a) => a.shaping.includes(kind));

const HARD_CASES: HardCase[] = [
  {
    id: 'untested-token-expiry',
    what: 'a token that expires or is revoked mid-flow',
    how: 'load the `token-expiry` scenario, or POST /__sandbox/tokens/expire between two calls',
    tried: (o) => o.coverage.errors.some(saysTokenDead),
  },
  {
    id: 'untested-rate-limit',
    what: 'a 429 with Retry-After',
    how: 'start with `--rate-limit 10/min`, or set a fault {"status": 429, "retryAfter": 1} (scenario `flaky-api`)',
    tried: (o) => o.coverage.errors.some((e) => e.status === 429),
  },
  {
    id: 'untested-server-error',
    what: 'a 5xx answer from the API',
    how: 'set a fault {"status": 503, "retryAfter": 2, "times": 2} (scenario `flaky-api`)',
    tried: (o) => o.coverage.errors.some((e) => e.status >= 500),
  },
  {
    id: 'untested-webhooks',
    what: 'a webhook delivery',
    how: 'register a webhook (POST /api/webhook) pointing at your receiver',
    tried: (o) => o.deliveries.length > 0,
  },
  {
    id: 'untested-webhook-retry',
    what: 'a webhook delivery retried after a failed attempt',
    how: 'load the `webhook-outage` scenario, or start a receiver outage',
    tried: (o) => anyAttempt(o, (a) => a.trigger === 'retry'),
  },
  {
    id: 'untested-duplicate-webhook',
    what: 'a duplicate webhook delivery (same webhook-id)',
    how: 'set a receiver fault {"kind": "duplicate"} (scenario `bad-webhook-day`)',
    tried: (o) => anyAttempt(o, (a) => a.trigger === 'duplicate' || a.trigger === 'redeliver'),
  },
  {
    id: 'untested-forged-webhook',
    what: 'a webhook with a bad signature',
    how: 'set a receiver fault {"kind": "bad-signature"} (scenario `bad-webhook-day`)',
    tried: shapedBy('bad-signature'),
  },
  {
    id: 'untested-stale-webhook',
    what: 'a webhook with a stale timestamp',
    how: 'set a receiver fault {"kind": "stale-timestamp"} (scenario `bad-webhook-day`)',
    tried: shapedBy('stale-timestamp'),
  },
  {
    id: 'untested-out-of-order-webhook',
    what: 'webhooks arriving out of order',
    how: 'set a receiver fault {"kind": "out-of-order"} (scenario `bad-webhook-day`)',
    tried: shapedBy('out-of-order'),
  },
];

export const untestedChecks: Check[] = HARD_CASES.map((hard) => ({
  id: hard.id,
  severity: 'info',
  title: `Never tried: ${hard.what}`,
  looksFor: `whether the run met ${hard.what}`,
  advice: `To try it: ${hard.how}.`,
  run: (o) => (hard.tried(o) ? undefined : { count: 0, evidence: [] }),
}));

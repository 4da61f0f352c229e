/**
 * `ignores-retry-after` (docs/readiness.md): the same request sent again before the `Retry-After` of the 429 or 503
 * it got had passed. Judged in wall time, the time a client waits, from when the answer left the sandbox; a test
 * that stands in for waiting by advancing the sandbox clock that far honours it too.
 */
import { type Check, Tally, requestEvidence, seconds } from './check.js';
import type { RequestSeen } from './observed.js';

export const ignoresRetryAfter: Check = {
  id: 'ignores-retry-after',
  severity: 'error',
  title: 'Retries before Retry-After has passed',
  looksFor:
    'the same request (method, path, action, tenant) sent again sooner than the Retry-After of the 429 or 503 it was answered, less retryAfterGrace (100ms)',
  advice:
    'On 429 and 503, wait the seconds Retry-After names before sending the request again (and back off when it is absent).',
  run(o, t) {
    const last = new Map<string, RequestSeen>();
    const tally = new Tally(t.evidence);
    for (const r of o.byArrival) {
      const key = `${r.platformId ?? r.token ?? ''} ${r.method} ${r.path} ${r.action ?? ''}`;
      const before = last.get(key);
      last.set(key, r);
      if (!before || before.retryAfter === undefined || (before.status !== 429 && before.status !== 503)) continue;
      const waitMs = before.retryAfter * 1000 - t.retryAfterGraceMs;
      const waitedWall = r.wall - (before.wall + before.durationMs);
      const waitedSandbox = r.at - before.at;
      if (waitedWall >= waitMs || waitedSandbox >= waitMs) continue;
      tally.add(() => [
        requestEvidence(before, `answered ${before.status} with Retry-After: ${before.retryAfter}`),
        requestEvidence(r, `sent again ${seconds(Math.max(0, waitedWall))} after that answer`),
      ]);
    }
    return tally.outcome();
  },
};

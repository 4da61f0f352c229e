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
    // The requests whose last answer was a 429 or 503 with Retry-After, by what a retry of them would be. A request's
    // key is made only while one is waiting, or when it is such a refusal itself: most of a long run needs none.
    const refused = new Map<string, RequestSeen>();
    const tally = new Tally(t.evidence);
    for (const r of o.byArrival) {
      const refusal = r.retryAfter !== undefined && (r.status === 429 || r.status === 503);
      if (refused.size === 0 && !refusal) continue;
      const key = `${r.platformId ?? r.token ?? ''} ${r.method} ${r.path} ${r.action ?? ''}`;
      const before = refused.get(key);
      if (refusal) refused.set(key, r);
      else refused.delete(key);
      if (!before) continue;
      const waitMs = before.retryAfter! * 1000 - t.retryAfterGraceMs;
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

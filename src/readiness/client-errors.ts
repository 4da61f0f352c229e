/**
 * `client-errors` (docs/readiness.md): requests the service refused for a reason of the integration's own making.
 * Refusals the sandbox provoked (an API fault, the rate limit, a token it expired or revoked) are the hard days a
 * test tries on purpose and are left out; what remains (400, 403, 404, 409…) would fail in production too.
 */
import { type Check, outcome, requestEvidence } from './check.js';
import type { RequestSeen } from './observed.js';
import { saysTokenDead } from './tokens.js';

/** A 4xx the integration caused: not a fault's, not a quota's, not a dead token's. */
export function unexplainedRefusal(r: RequestSeen): boolean {
  return r.status >= 400 && r.status < 500 && r.fault === undefined && r.status !== 429 && !saysTokenDead(r);
}

export const clientErrors: Check = {
  id: 'client-errors',
  severity: 'warning',
  title: 'Requests the service refused',
  looksFor:
    'at least clientErrorMin (3) answers 4xx that no fault, rate limit or expired token explains, more than clientErrorRatio (0.1) of the requests',
  advice:
    'Read each refusal’s message (errors[] names the field): a go-live review rejects an integration whose calls fail. Tests that provoke refusals on purpose can leave this check out (ignore=client-errors).',
  run(o, t) {
    const refused = o.byArrival.filter(unexplainedRefusal);
    if (refused.length < t.clientErrorMin || refused.length <= o.byArrival.length * t.clientErrorRatio)
      return undefined;
    return outcome(
      refused.length,
      refused.slice(0, t.evidence).map((r) => requestEvidence(r, r.message)),
    );
  },
};

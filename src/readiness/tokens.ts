/**
 * The token checks (docs/readiness.md): `expired-token-reused`, a token sent again after a 401 said it had expired
 * or was revoked; `token-per-request`, a new token made for most requests instead of one reused until it expires.
 * Evidence names tokens by number (`token #2`, in the order they were first used), never by value.
 */
import { type Check, Tally, outcome, requestEvidence } from './check.js';
import type { RequestSeen } from './observed.js';

/** The 401 messages that say a token is dead for good (domain/tokens.ts). */
export function saysTokenDead(r: { status: number; message?: string | undefined }): boolean {
  return r.status === 401 && (r.message === 'Token expired' || r.message === 'Token revoked');
}

export const expiredTokenReused: Check = {
  id: 'expired-token-reused',
  severity: 'error',
  title: 'Sends a token again after a 401 said it expired',
  looksFor: 'a request carrying a token sent after an earlier answer said "Token expired" or "Token revoked" for it',
  advice:
    'On 401 "Token expired" or "Token revoked", get a new token (POST /api/token) and send the request again with it; never reuse the dead one.',
  run(o, t) {
    const numbers = new Map<string, number>();
    const dead = new Map<string, RequestSeen>();
    const tally = new Tally(t.evidence);
    for (const r of o.byArrival) {
      if (r.token === undefined) continue;
      if (!numbers.has(r.token)) numbers.set(r.token, numbers.size + 1);
      const death = dead.get(r.token);
      // Sent once the 401 had been answered: a request already on its way then is not a reuse.
      if (death && r.arrived > death.answered) {
        const label = `token #${numbers.get(r.token)}`;
        tally.add(() => [
          requestEvidence(death, `${label}: "${death.message}"`),
          requestEvidence(r, `${label} sent again after that 401`),
        ]);
        continue;
      }
      if (saysTokenDead(r) && !death) dead.set(r.token, r);
    }
    return tally.outcome();
  },
};

export const tokenPerRequest: Check = {
  id: 'token-per-request',
  severity: 'warning',
  title: 'Makes a new token for most requests',
  looksFor:
    'more tokens made (POST /api/token) than tokenRatio (0.5) of the requests that carried one, once tokenMinRequests (10) have',
  advice: 'Keep a token and reuse it until it expires (1800 s) or a 401 says so; then make one new token.',
  run(o, t) {
    const made: RequestSeen[] = [];
    let carried = 0;
    for (const r of o.byArrival)
      if (r.path !== '/api/token') carried += r.token !== undefined ? 1 : 0;
      else if (r.action === 'create' && r.status >= 200 && r.status < 300) made.push(r);
    if (carried < t.tokenMinRequests || made.length <= carried * t.tokenRatio) return undefined;
    const detail = `${made.length} tokens made for ${carried} requests that carried one`;
    return outcome(
      made.length,
      made.slice(0, t.evidence).map((r, i) => requestEvidence(r, i === 0 ? detail : undefined)),
    );
  },
};

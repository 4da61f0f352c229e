/**
 * A replica's 503 (docs/team-sandbox.md): no leader to answer yet, or a leader that lost its database. Both say
 * when to ask again; a client that retries reaches the leader once one is elected.
 */
import type { ServerResponse } from 'node:http';
import { errorBody } from '../core/errors.js';

const RETRY_AFTER = '1';

/** The leader's 503, as the answer of its sandbox's app. */
export function unavailableResponse(message: string): Response {
  return new Response(JSON.stringify(errorBody(503, message)), {
    status: 503,
    headers: { 'content-type': 'application/json', 'retry-after': RETRY_AFTER },
  });
}

/** A replica's 503 on the wire (`mark`: a header saying why, for the replica that forwarded it). */
export function unavailable(res: ServerResponse, message: string, mark?: string): void {
  if (res.headersSent) return void res.destroy();
  res.writeHead(503, {
    'content-type': 'application/json',
    'retry-after': RETRY_AFTER,
    ...(mark !== undefined ? { [mark]: '1' } : {}),
  });
  res.end(JSON.stringify(errorBody(503, message)));
}

/**
 * An entry as the readiness report reads it (readiness/sources.ts): unredacted, never shown as it is. The bearer
 * token lets the report tell tokens apart; the report names them by number only.
 */
export interface JournalRecord {
  id: number;
  atMs: number;
  wallMs: number;
  arrived: number;
  answered: number;
  durationMs: number;
  method: string;
  path: string;
  status: number;
  platformId: string | undefined;
  /** The operation the body named (`data.action`, `data.type`), cut to 100 characters. */
  action: string | undefined;
  /** The request's JSON body, parsed when called (undefined when none or not JSON): most readers need only some. */
  body: () => unknown;
  token: string | undefined;
  /** The error answer's message. */
  message: string | undefined;
  retryAfter: number | undefined;
  fault: string | undefined;
}

/**
 * An entry as the readiness report reads it (readiness/sources.ts): unredacted, never shown as it is. The bearer
 * token lets the report tell tokens apart; the report names them by number only. Every field is taken when the
 * request is recorded (an error's message from its answer), so reading a full journal parses no header and no body.
 */
export interface JournalRecord {
  readonly id: number;
  /** Sandbox time of arrival, on its tenant's clock (epoch ms). */
  readonly at: number;
  /** Wall time of arrival (epoch ms). */
  readonly wall: number;
  readonly arrived: number;
  readonly answered: number;
  readonly durationMs: number;
  readonly method: string;
  readonly path: string;
  /** The operation the body named (`data.action`, `data.type`), cut to 100 characters. */
  readonly action: string | undefined;
  readonly status: number;
  readonly platformId: string | undefined;
  /** The token of its `Authorization: Bearer` header. */
  readonly token: string | undefined;
  /** The error answer's message. */
  readonly message: string | undefined;
  readonly retryAfter: number | undefined;
  readonly fault: string | undefined;
  /** The contract its body names: `data.contract.contractKey`, else `data.contractKey`. */
  readonly contractKey: string | undefined;
  /** The client its body names: `data.clientKey`. */
  readonly clientKey: string | undefined;
}

/**
 * What the readiness report judges (docs/readiness.md): the integration's own `/api` requests and the webhook
 * deliveries sent to it, as plain records. `sources.ts` reads them from the journal, the delivery log and the store;
 * the checks read only these, so each is tested over records written by hand.
 */

/** One `/api` request the integration sent, as the journal kept it. */
export interface RequestSeen {
  /** The journal entry's id (GET /__sandbox/requests shows it). */
  id: number;
  /** Sandbox time of arrival, on its tenant's clock (epoch ms). */
  at: number;
  /** Wall time of arrival (epoch ms): what a client waits in. */
  wall: number;
  /** Wall milliseconds the sandbox took to answer. */
  durationMs: number;
  /**
   * Its arrival and its answer counted on one counter of the journal: a request whose `arrived` is above another's
   * `answered` was sent after that answer came back, whatever the clocks say.
   */
  arrived: number;
  answered: number;
  method: string;
  path: string;
  action?: string | undefined;
  status: number;
  /** The tenant (platformId) it was attributed to. */
  platformId?: string | undefined;
  /** The bearer token it carried (kept here, never shown: evidence names tokens by number). */
  token?: string | undefined;
  /** The error answer's message (status >= 400). */
  message?: string | undefined;
  /** Seconds of the answer's `Retry-After`. */
  retryAfter?: number | undefined;
  /** The API fault that answered it (`X-Sandbox-Fault`), or `rate-limit` when the sandbox's quota did. */
  fault?: string | undefined;
  /** The contract and the client its body names (`data.contract.contractKey` or `data.contractKey`, `data.clientKey`). */
  contractKey?: string | undefined;
  clientKey?: string | undefined;
  /**
   * The status read it is (docs/readiness.md, "polling"), e.g. `contract C1`, when the observer says; else the check
   * works it out from `method`, `path`, `action`, `contractKey` and `clientKey`.
   */
  reads?: StatusRead | undefined;
}

/** A read of something whose status a webhook would tell. */
export interface StatusRead {
  /** What is read, in words: `contract C1`, `recipients of contract C1`, `contracts of client K`. */
  subject: string;
  /** The contract it is about (a delivery about it prompts a read), or none for a list. */
  contractKey?: string | undefined;
  /** The client whose deliveries prompt it. */
  clientKey?: string | undefined;
}

/** A receiver fault or outage that shaped an attempt. */
export type AttemptShaping = 'bad-signature' | 'stale-timestamp' | 'duplicate' | 'out-of-order' | 'slow' | 'outage';

export interface AttemptSeen {
  /** Sandbox time of the attempt (epoch ms). */
  at: number;
  /** Wall time the attempt was sent (epoch ms). */
  wall: number;
  trigger: 'first' | 'retry' | 'redeliver' | 'duplicate';
  /** The receiver's answer; absent when it gave none (`error` says why). */
  statusCode?: number | undefined;
  error?: string | undefined;
  durationMs: number;
  /** What the sandbox did to this attempt on purpose (an outage answered instead of the receiver, a fault). */
  shaping: readonly AttemptShaping[];
}

/** One webhook delivery (one event to one webhook) and its attempts. */
export interface DeliverySeen {
  id: string;
  event: string;
  platformId: string;
  clientKey: string;
  contractKey: string;
  webhookKey: string;
  attempts: AttemptSeen[];
}

/** A webhook registered now. */
export interface WebhookSeen {
  platformId: string;
  clientKey: string;
  webhookKey: string;
  /** Subscribed to at least one event. */
  subscribed: boolean;
}

export interface Observed {
  requests: readonly RequestSeen[];
  deliveries: DeliverySeen[];
  webhooks: WebhookSeen[];
}

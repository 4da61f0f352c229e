/**
 * A webhook delivery as the dispatcher keeps it (one per event and webhook), its attempts, and the view the
 * control API shows (docs/webhooks.md, "The delivery log").
 */
import type { BusEvent, ContractEvent } from '../core/events.js';
import { isoTime } from '../core/time-format.js';
import type { TraceContext } from '../core/trace-context.js';
import type { ContractEventType } from '../core/vocabulary.js';
import type { WebhookRecord } from '../store/records.js';
import type { FaultTarget, ReceiverFaultHit } from './receiver-faults.js';
import type { AttemptOutcome } from './sender.js';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';
/** `duplicate`: the second copy a `duplicate` receiver fault sends right after the first attempt. */
export type AttemptTrigger = 'first' | 'retry' | 'redeliver' | 'duplicate';

export interface DeliveryAttempt {
  /** Sandbox time of the attempt. */
  at: number;
  /** Wall time it was sent (or an outage answered), for the readiness report (docs/readiness.md); not shown. */
  wallAt: number;
  trigger: AttemptTrigger;
  /** The `webhook-timestamp` sent (unix seconds of wall time); absent when an outage answered and nothing was sent. */
  webhookTimestamp?: number;
  statusCode?: number;
  error?: string;
  durationMs: number;
  /** Set when a simulated outage answered instead of the receiver: the outage's cause. */
  cause?: string;
  outageId?: string;
  /** Receiver faults that shaped this attempt. */
  faults?: ReceiverFaultHit[];
  /** Real time a `slow` fault held the attempt back before sending, ms. */
  delayMs?: number;
  /** The `traceparent` sent: the delivery's trace, this attempt's own span (docs/webhooks.md, "Traces"). */
  traceparent?: string;
}

/**
 * A delivery an `out-of-order` fault holds back until a later one to its endpoint has gone out, or until `until`
 * (a kept timer, core/timers.ts, releases it then).
 */
export interface Held {
  hit: ReceiverFaultHit;
  sameContract: boolean;
  until: number;
}

export interface Delivery {
  id: string;
  webhookId: string;
  webhookKey: string;
  url: string;
  platformId: string;
  clientKey: string;
  contractKey: string;
  event: ContractEventType;
  cause?: string;
  /** Where its attempts hang in a trace: the causing request's, or (tracing on) its first attempt's span. */
  trace?: TraceContext | undefined;
  body: string;
  createdAt: number;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  /** Retries used so far (index of the next step of the schedule). */
  retries: number;
  /** The automatic sequence (first attempt, then retries) is still going. */
  active: boolean;
  inFlight: number;
  /** When the next automatic retry is due (a kept timer, core/timers.ts, runs it). */
  nextAttemptAt?: number | undefined;
  /** Why the automatic sequence stopped early (the webhook was deleted). */
  stopped?: string;
  /** Dropped from the log (reset, cap): in-flight work must not touch it any more. */
  removed: boolean;
  /** Held back by an `out-of-order` fault (its first attempt waits). */
  held?: Held | undefined;
  /** The out-of-order hit to log on the first attempt once a held delivery goes out. */
  releasedHit?: ReceiverFaultHit | undefined;
}

/** An attempt as the delivery log shows it: its time in ISO 8601, the outage's id left out. */
export type DeliveryAttemptView = Omit<DeliveryAttempt, 'at' | 'wallAt' | 'outageId'> & { at: string };

export interface DeliveryView {
  id: string;
  webhookId: string;
  webhookKey: string;
  url: string;
  event: ContractEventType;
  status: DeliveryStatus;
  contractKey: string;
  clientKey: string;
  cause?: string;
  /** The trace its attempts carry (each attempt's `traceparent` names its own span). */
  traceId?: string;
  createdAt: string;
  attempts: DeliveryAttemptView[];
  nextAttemptAt?: string;
  /** While an `out-of-order` receiver fault holds the delivery back: which fault, and the latest it goes out (sandbox time). */
  held?: { faultId: string; until: string };
  stopped?: string;
  payload: unknown;
}

export interface DeliveryFilter {
  webhookKey?: string | undefined;
  event?: string | undefined;
  status?: DeliveryStatus | undefined;
  contractKey?: string | undefined;
  clientKey?: string | undefined;
  platformId?: string | undefined;
}

/** Whether a delivery matches a filter of the delivery log. */
export function matchesFilter(d: Delivery, filter: DeliveryFilter): boolean {
  return (
    (filter.webhookKey === undefined || d.webhookKey === filter.webhookKey) &&
    (filter.event === undefined || d.event === filter.event) &&
    (filter.status === undefined || d.status === filter.status) &&
    (filter.contractKey === undefined || d.contractKey === filter.contractKey) &&
    (filter.clientKey === undefined || d.clientKey === filter.clientKey) &&
    (filter.platformId === undefined || d.platformId === filter.platformId)
  );
}

/**
 * A new delivery of one event to one webhook, pending its first attempt. `body` is the event's JSON, built once for
 * all the webhooks it goes to.
 */
export function newDelivery(
  id: string,
  event: ContractEvent,
  webhook: WebhookRecord,
  body: string,
  createdAt: number,
): Delivery {
  return {
    id,
    webhookId: event.id,
    webhookKey: webhook.webhookKey,
    url: webhook.url,
    platformId: webhook.platformId,
    clientKey: webhook.clientKey,
    contractKey: event.data.contractKey,
    event: event.type,
    ...(event.cause !== undefined ? { cause: event.cause } : {}),
    ...(event.trace !== undefined ? { trace: event.trace } : {}),
    body,
    createdAt,
    status: 'pending',
    attempts: [],
    retries: 0,
    active: true,
    inFlight: 0,
    removed: false,
  };
}

/** Whether any attempt got a 2xx: a delivery stopped early (its webhook deleted) counts as delivered then. */
export function everDelivered(d: Delivery): boolean {
  return d.attempts.some((a) => a.statusCode !== undefined && a.statusCode >= 200 && a.statusCode < 300);
}

/** The bus's word that an attempt finished (scenarios' `delivery` expectations read it): the receiver's status or error. */
export function attemptedEvent(d: Delivery, outcome: AttemptOutcome): Extract<BusEvent, { type: 'webhook.attempted' }> {
  return {
    type: 'webhook.attempted',
    platformId: d.platformId,
    clientKey: d.clientKey,
    deliveryId: d.id,
    webhookKey: d.webhookKey,
    event: d.event,
    contractKey: d.contractKey,
    ...(outcome.statusCode !== undefined ? { statusCode: outcome.statusCode } : {}),
    ...(outcome.error !== undefined ? { error: outcome.error } : {}),
  };
}

/** The delivery a log over its cap drops first: the oldest finished one not in flight, else the oldest of all. */
export function firstToDrop(log: Map<string, Delivery>): Delivery | undefined {
  for (const d of log.values()) if (!d.active && d.inFlight === 0) return d;
  return log.values().next().value;
}

/** The delivery as receiver faults match it. */
export function target(d: Delivery): FaultTarget {
  return {
    event: d.event,
    webhookKey: d.webhookKey,
    url: d.url,
    clientKey: d.clientKey,
    contractKey: d.contractKey,
    platformId: d.platformId,
  };
}

export function view(d: Delivery): DeliveryView {
  return {
    id: d.id,
    webhookId: d.webhookId,
    webhookKey: d.webhookKey,
    url: d.url,
    event: d.event,
    status: d.status,
    contractKey: d.contractKey,
    clientKey: d.clientKey,
    ...(d.cause !== undefined ? { cause: d.cause } : {}),
    ...(d.trace !== undefined ? { traceId: d.trace.traceId } : {}),
    createdAt: isoTime(d.createdAt),
    attempts: d.attempts.map((a) => ({
      at: isoTime(a.at),
      trigger: a.trigger,
      ...(a.webhookTimestamp !== undefined ? { webhookTimestamp: a.webhookTimestamp } : {}),
      ...(a.statusCode !== undefined ? { statusCode: a.statusCode } : {}),
      ...(a.error !== undefined ? { error: a.error } : {}),
      durationMs: a.durationMs,
      ...(a.cause !== undefined ? { cause: a.cause } : {}),
      ...(a.faults !== undefined ? { faults: a.faults.map((f) => ({ ...f })) } : {}),
      ...(a.delayMs !== undefined ? { delayMs: a.delayMs } : {}),
      ...(a.traceparent !== undefined ? { traceparent: a.traceparent } : {}),
    })),
    ...(d.nextAttemptAt !== undefined ? { nextAttemptAt: isoTime(d.nextAttemptAt) } : {}),
    ...(d.held !== undefined ? { held: { faultId: d.held.hit.id, until: isoTime(d.held.until) } } : {}),
    ...(d.stopped !== undefined ? { stopped: d.stopped } : {}),
    payload: JSON.parse(d.body) as unknown,
  };
}

/**
 * The webhook dispatcher (docs/webhooks.md): turns contract events on the bus into real, signed HTTP POSTs to the
 * client's webhooks, retries failures on the sandbox clock, and keeps a capped, inspectable delivery log.
 *
 * First attempts go out through their endpoint's lane, in event order (lanes.ts). A failed delivery leaves the
 * lane at once and is retried by a clock timer on its own, so a retry never holds back newer events.
 *
 * Times: each attempt is signed with wall time (`webhook-timestamp`), so a receiver's verifier accepts it whatever
 * the sandbox clock says; retries are scheduled, and attempts logged, in sandbox time (docs/webhooks.md).
 *
 * Two things can make an attempt go otherwise, each asked in one place: a simulated outage (outages.ts) answers
 * instead of the receiver, and the receiver faults hook (receiver-faults.ts) may hold, delay, spoil or repeat it.
 * Each fault hit is logged on the attempt it affected.
 */
import type { Clock } from '../core/clock.js';
import { later } from '../core/time-range.js';
import { TIMER_RANK } from '../core/timer-order.js';
import { type WallClock, wallDelay, wallNow } from '../core/wall-time.js';
import { ApiError, quote } from '../core/errors.js';
import type { ContractEvent } from '../core/events.js';
import { CONTRACT_EVENT_TYPES, WEBHOOK_FLAG_FOR } from '../core/vocabulary.js';
import type { Services } from '../store/services.js';
import type { WebhookRecord } from '../store/records.js';
import {
  type AttemptTrigger,
  type Delivery,
  type DeliveryFilter,
  type DeliveryStatus,
  type DeliveryView,
  attemptedEvent,
  everDelivered,
  firstToDrop,
  matchesFilter,
  newDelivery,
  target,
  view,
} from './delivery.js';
import { KeptDeliveries } from './kept-deliveries.js';
import { Lanes } from './lanes.js';
import { type OutageSpec, Outages, simulatedOutcome } from './outages.js';
import type { ReceiverFaultHit, ReceiverFaultHook } from './receiver-faults.js';
import { type AttemptOutcome, Sender, type SignatureFault } from './sender.js';
import { DEFAULT_WEBHOOK_CONCURRENCY } from '../config/options.js';
import type { Tracer } from '../core/trace-context.js';
import { type AttemptSpan, attemptSpan, endAttemptSpan } from './attempt-span.js';
import { DEFAULT_DELIVERY_LOG_LIMIT, DEFAULT_WEBHOOK_TIMEOUT_MS, RETRY_SCHEDULE_MS } from './schedule.js';

export type { DeliveryFilter, DeliveryView } from './delivery.js';
export type { OutageSpec } from './outages.js';

export interface DispatcherOptions {
  timeoutMs?: number;
  logLimit?: number;
  /** First attempts in flight at once to one endpoint, about different contracts. */
  concurrency?: number;
  userAgent: string;
  /** The receiver faults hook (receiver-faults.ts): asked at each step of a delivery. */
  receiverFaults: ReceiverFaultHook;
  /** What dates attempts in wall time for the readiness report (default: the system's; tests inject one). */
  wall?: WallClock;
  /** Makes each attempt's span (docs/webhooks.md, "Traces"); the plain tracer when tracing is off. */
  tracer?: Tracer;
}

/** The kinds of kept timers the dispatcher sets (core/timers.ts), each with a delivery's id as its ref. */
const RETRY = 'webhook.retry';
const HOLD = 'webhook.hold';

export class WebhookDispatcher {
  private readonly log = new Map<string, Delivery>();
  private readonly outages: Outages;
  /** The delivery log is kept across a restart (core/kept.ts): pending first attempts and retries go on. */
  private readonly keeper: KeptDeliveries;
  private readonly lanes: Lanes;
  private readonly faults: ReceiverFaultHook;
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly abort = new AbortController();
  private readonly sender = new Sender();
  private readonly unsubscribe: Array<() => void> = [];
  private readonly timeoutMs: number;
  private readonly logLimit: number;
  private deliverySeq = 0;
  private closed = false;

  constructor(
    private readonly services: Services,
    private readonly options: DispatcherOptions,
  ) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
    this.logLimit = options.logLimit ?? DEFAULT_DELIVERY_LOG_LIMIT;
    this.faults = options.receiverFaults;
    const { bus, timers, store } = services;
    this.lanes = new Lanes({
      clockOf: (d) => this.clockOf(d),
      faults: this.faults,
      send: (d, hits) => this.firstAttempt(d, hits),
      track: (d, work) => this.track(d, work),
      closed: () => this.closed,
      holdTimer: (d, until) =>
        until === undefined
          ? timers.cancel(HOLD, d.id)
          : timers.set({ kind: HOLD, ref: d.id, at: until, owner: d.platformId }),
      changed: (d) => this.changed(d),
      concurrency: options.concurrency ?? DEFAULT_WEBHOOK_CONCURRENCY,
    });
    this.outages = new Outages(store);
    this.keeper = new KeptDeliveries(store, this.log, () => {
      // Oldest first, so each lane sends in event order again; retries come back with their kept timers.
      for (const d of this.log.values()) {
        this.deliverySeq = Math.max(this.deliverySeq, Number(d.id.replace(/^dlv_/, '')) || 0);
        if (d.active && (d.held || d.attempts.length === 0 || d.releasedHit)) this.lanes.restore(d);
      }
    });
    timers.define(RETRY, (id) => {
      const d = this.log.get(id);
      return d && this.runRetry(d);
    });
    timers.define(HOLD, (id) => {
      const d = this.log.get(id);
      return d && this.lanes.release(d);
    });
    for (const type of CONTRACT_EVENT_TYPES) this.unsubscribe.push(bus.on(type, (event) => this.onEvent(event)));
    this.unsubscribe.push(bus.on('webhook.deleted', (e) => this.onWebhookDeleted(e.platformId, e.webhookKey)));
    this.unsubscribe.push(bus.on('sandbox.reset', (e) => this.onReset(e.platformId)));
  }

  /** A delivery's times and retries are its tenant's (its own clock, or the sandbox's). */
  private clockOf(d: { platformId: string }): Clock {
    return this.services.clocks.of(d.platformId);
  }

  /** The delivery log, oldest first. */
  deliveries(filter: DeliveryFilter = {}): DeliveryView[] {
    const out: DeliveryView[] = [];
    for (const d of this.log.values()) if (matchesFilter(d, filter)) out.push(view(d));
    return out;
  }

  /** The deliveries as kept (of one tenant, or all), oldest first, for the readiness report: read, never changed. */
  kept(platformId?: string): readonly Readonly<Delivery>[] {
    const out: Delivery[] = [];
    for (const d of this.log.values()) if (platformId === undefined || d.platformId === platformId) out.push(d);
    return out;
  }

  /** One delivery (of this tenant only, when `platformId` is given). */
  delivery(id: string, platformId?: string): DeliveryView | undefined {
    const d = this.log.get(id);
    return d && (platformId === undefined || d.platformId === platformId) ? view(d) : undefined;
  }

  /**
   * Sends a delivery again at once, with the same `webhook-id` and body (a receiver must treat it as a duplicate),
   * signed afresh at the current wall time. Resolves with the delivery once the attempt has finished.
   */
  async redeliver(id: string): Promise<DeliveryView> {
    const d = this.log.get(id);
    if (!d) throw ApiError.notFound(`Webhook delivery ${quote(id)} not found`);
    if (!this.webhookOf(d))
      throw ApiError.conflict(`Webhook ${d.webhookKey} was deleted; its deliveries cannot be sent again`);
    await this.track(d, this.attempt(d, 'redeliver'));
    return view(d);
  }

  /** First attempts wait in their lanes until `ready` settles (the sandbox's start: none before it listens). */
  holdUntil(ready: Promise<void>): void {
    this.lanes.holdUntil(ready);
  }

  /** Simulates a receiver outage (for scenarios): matching attempts fail without contacting the receiver. */
  startOutage(spec: OutageSpec): string {
    return this.outages.start(spec);
  }

  endOutage(id: string): void {
    this.outages.end(id);
  }

  /** Aborts attempts in flight and stops sending; resolves once they have settled. */
  async close(): Promise<void> {
    this.closed = true;
    for (const off of this.unsubscribe) off();
    // Pending retries and holds are kept timers (core/timers.ts): the clocks' close stops them, the data file keeps them.
    this.abort.abort();
    this.sender.abort();
    await Promise.allSettled([...this.inFlight]);
    this.sender.close();
  }

  private onEvent(event: ContractEvent): void {
    if (this.closed) return;
    // Most clients have no webhook: then an event costs one index lookup, and no body is built.
    if (this.services.store.webhooks.countWhere('client', event.data.clientKey) === 0) return;
    const flag = WEBHOOK_FLAG_FOR[event.type];
    let body: string | undefined;
    for (const webhook of this.services.store.webhooks.where('client', event.data.clientKey)) {
      if (webhook.platformId !== event.platformId || !webhook[flag]) continue;
      body ??= JSON.stringify({ type: event.type, timestamp: event.timestamp, data: event.data });
      const d = newDelivery(`dlv_${++this.deliverySeq}`, event, webhook, body, this.clockOf(webhook).now());
      this.log.set(d.id, d);
      this.keeper.added(d);
      this.enforceCap();
      this.lanes.enqueue(d);
    }
  }

  /** The first attempt, and the second copy a `duplicate` fault asks for right after it. */
  private async firstAttempt(d: Delivery, hits: ReceiverFaultHit[]): Promise<void> {
    await this.attempt(d, 'first', hits);
    if (d.removed || this.closed || !this.webhookOf(d)) return;
    const dup = this.faults.duplicate(target(d));
    if (dup) await this.attempt(d, 'duplicate', [dup]);
  }

  /**
   * One attempt: reach the receiver (or the outage standing in for it), log the attempt, tell the bus, then go on by
   * what it answered. Its facts stay plain locals, one record at the end: attempts are the dispatcher's hot path.
   */
  private async attempt(d: Delivery, trigger: AttemptTrigger, faults: ReceiverFaultHit[] = []): Promise<void> {
    const webhook = this.webhookOf(d);
    if (!webhook || this.closed) return;
    let at = this.clockOf(d).now();
    let outage = this.outages.for(d, at);
    let delayMs: number | undefined;
    let signedAt: number | undefined;
    let wallAt = 0;
    let outcome: AttemptOutcome;
    const span = attemptSpan(this.options.tracer, d, trigger);
    d.inFlight++;
    try {
      // A `slow` fault holds a first attempt back in real time; the sandbox time and the outages are read again after.
      const slow = !outage && trigger === 'first' ? this.faults.delayFirst(target(d)) : undefined;
      if (slow) {
        delayMs = slow.delayMs;
        faults.push(slow.hit);
        await wallDelay(delayMs, this.abort.signal);
        if (d.removed || this.closed || !this.webhookOf(d)) return;
        at = this.clockOf(d).now();
        outage = this.outages.for(d, at);
      }
      wallAt = (this.options.wall ?? wallNow)();
      if (outage) {
        outcome = simulatedOutcome(outage, at);
      } else {
        const spoilt = this.faults.spoilSigning(target(d));
        if (spoilt) faults.push(spoilt.hit);
        signedAt = wallNow() - (spoilt?.ageMs ?? 0);
        outcome = await this.post(d, webhook, at, signedAt, spoilt?.badSignature, span);
      }
    } finally {
      d.inFlight--;
    }
    if (span) endAttemptSpan(span, outcome, outage !== undefined);
    if (d.removed || this.closed) return;
    d.attempts.push({
      at,
      wallAt,
      trigger,
      ...(signedAt !== undefined ? { webhookTimestamp: Math.floor(signedAt / 1000) } : {}),
      ...(outcome.statusCode !== undefined ? { statusCode: outcome.statusCode } : {}),
      ...(outcome.error !== undefined ? { error: outcome.error } : {}),
      durationMs: outcome.durationMs,
      ...(outage ? { outageId: outage.id, ...(outage.cause !== undefined ? { cause: outage.cause } : {}) } : {}),
      ...(faults.length > 0 ? { faults } : {}),
      ...(delayMs !== undefined ? { delayMs } : {}),
      ...(span && !outage ? { traceparent: span.headers.traceparent } : {}),
    });
    this.changed(d);
    this.services.bus.emit(attemptedEvent(d, outcome));
    this.afterAttempt(d, trigger, outcome);
  }

  /** The signed POST to the receiver, its signature spoilt when a receiver fault says so, under the attempt's span. */
  private post(
    d: Delivery,
    webhook: WebhookRecord,
    at: number,
    signedAt: number,
    badSignature: SignatureFault | undefined,
    span: AttemptSpan | undefined,
  ): Promise<AttemptOutcome> {
    return this.sender.post({
      url: d.url,
      secret: webhook.secret,
      webhookId: d.webhookId,
      at,
      signedAt,
      badSignature,
      body: d.body,
      timeoutMs: this.timeoutMs,
      userAgent: this.options.userAgent,
      traceHeaders: span?.headers,
    });
  }

  /** Where a delivery goes after an attempt: delivered, one extra attempt logged, or its next retry. */
  private afterAttempt(d: Delivery, trigger: AttemptTrigger, outcome: AttemptOutcome): void {
    if (outcome.ok) {
      this.finish(d, 'delivered');
    } else if (trigger === 'redeliver' || trigger === 'duplicate') {
      // A manual redelivery (or a fault's duplicate) is one extra attempt: it does not restart or advance the
      // automatic schedule. A failed duplicate does not undo a delivery its first attempt made.
      if (!(trigger === 'duplicate' && d.status === 'delivered')) d.status = d.active ? 'pending' : 'failed';
    } else {
      this.scheduleRetry(d, outcome.retryAfterMs);
    }
  }

  private scheduleRetry(d: Delivery, retryAfterMs: number | undefined): void {
    if (!d.active) return;
    const step = RETRY_SCHEDULE_MS[d.retries];
    if (step === undefined) {
      this.finish(d, 'failed');
      return;
    }
    d.retries++;
    const at = later(this.clockOf(d).now(), retryAfterMs ?? step);
    d.nextAttemptAt = at;
    d.status = 'pending';
    this.changed(d);
    // Ranked with first attempts, after everything else due at that instant (docs/scenarios.md, "Order").
    this.services.timers.set({ kind: RETRY, ref: d.id, at, owner: d.platformId, rank: TIMER_RANK.delivery });
  }

  private runRetry(d: Delivery): Promise<void> | undefined {
    d.nextAttemptAt = undefined;
    this.changed(d);
    if (d.removed || !d.active) return undefined;
    return this.track(d, this.attempt(d, 'retry'));
  }

  private finish(d: Delivery, status: DeliveryStatus): void {
    d.status = status;
    d.active = false;
    this.stopTimers(d);
    d.nextAttemptAt = undefined;
    d.held = undefined;
    this.changed(d);
  }

  private stopTimers(d: Delivery): void {
    const { timers } = this.services;
    timers.cancel(RETRY, d.id);
    timers.cancel(HOLD, d.id);
  }

  private changed(d: Delivery): void {
    this.keeper.changed(d);
  }

  private onWebhookDeleted(platformId: string, webhookKey: string): void {
    for (const d of this.log.values()) {
      if (d.webhookKey !== webhookKey || d.platformId !== platformId || !d.active) continue;
      d.stopped = 'webhook deleted';
      this.finish(d, everDelivered(d) ? 'delivered' : 'failed');
    }
    this.lanes.drop(webhookKey);
  }

  private onReset(platformId: string | undefined): void {
    for (const d of [...this.log.values()]) {
      if (platformId === undefined || d.platformId === platformId) this.remove(d);
    }
    this.outages.reset(platformId);
    this.lanes.prune();
  }

  private remove(d: Delivery): void {
    d.removed = true;
    d.active = false;
    this.stopTimers(d);
    d.held = undefined;
    this.log.delete(d.id);
    this.keeper.removed(d);
  }

  /** Keeps the log under its cap: finished deliveries go first, oldest first; pending ones only if nothing else is left. */
  private enforceCap(): void {
    while (this.log.size > this.logLimit) {
      const victim = firstToDrop(this.log);
      if (!victim) return;
      this.remove(victim);
    }
  }

  private webhookOf(d: Delivery): WebhookRecord | undefined {
    const w = this.services.store.webhooks.get(d.webhookKey);
    return w && w.platformId === d.platformId ? w : undefined;
  }

  /** Work about a delivery: the clock of its tenant waits for it (an advance answers once it has settled). */
  private track<T>(d: { platformId: string }, work: Promise<T>): Promise<T> {
    const done = () => this.inFlight.delete(work);
    this.inFlight.add(work);
    void work.then(done, done);
    return this.clockOf(d).work.track(work);
  }
}

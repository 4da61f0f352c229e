/**
 * The webhook dispatcher (docs/webhooks.md): turns contract events on the bus into real, signed HTTP POSTs to the
 * client's webhooks, retries failures on the sandbox clock, and keeps a capped, inspectable delivery log.
 *
 * Ordering: every endpoint (webhook) has a lane. First attempts wait in the lane and go out one at a time, in
 * event order, so a healthy receiver sees `created, sent, …` in order. A failed delivery leaves the lane at
 * once and is retried by a clock timer on its own, so a retry never holds back newer events. Lanes run
 * independently of each other and of the request that emitted the event: a dead receiver slows nobody else.
 *
 * Times: each attempt is signed with wall time (`webhook-timestamp`), so a receiver's verifier accepts it whatever
 * the sandbox clock says; retries are scheduled, and attempts logged, in sandbox time (docs/webhooks.md).
 *
 * Receiver faults (receiver-faults.ts) spoil chosen deliveries on purpose, to test the receiver's handler: a bad
 * signature or stale timestamp on an attempt, a duplicate, a delivery held back until the next one, a late first
 * attempt. Each hit is logged on the attempt it affected.
 */
import { type Clock, type ClockTimer, wallDelay, wallNow } from '../core/clock.js';
import type { Services } from '../domain/context.js';
import { ApiError, quote } from '../core/errors.js';
import type { ContractEvent } from '../core/events.js';
import { CONTRACT_EVENT_TYPES, type ContractEventType, WEBHOOK_FLAG_FOR } from '../core/vocabulary.js';
import type { WebhookRecord } from '../store/records.js';
import { isoTime } from '../core/time-format.js';
import {
  type ActiveReceiverFault,
  type FaultTarget,
  type ReceiverFaultHit,
  type ReceiverFaults,
  faultDurationMs,
} from './receiver-faults.js';
import { type AttemptOutcome, type SignatureFault, postSigned } from './sender.js';
import {
  DEFAULT_DELIVERY_LOG_LIMIT,
  DEFAULT_WEBHOOK_TIMEOUT_MS,
  RETRY_SCHEDULE_MS,
  parseRetryAfter,
} from './schedule.js';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';
/** `duplicate`: the second copy a `duplicate` receiver fault sends right after the first attempt. */
export type AttemptTrigger = 'first' | 'retry' | 'redeliver' | 'duplicate';

export interface DeliveryAttempt {
  /** Sandbox time of the attempt. */
  at: number;
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
}

/** A delivery an `out-of-order` fault holds back until a later one to its endpoint has gone out. */
interface Held {
  hit: ReceiverFaultHit;
  sameContract: boolean;
  until: number;
  timer: ClockTimer;
}

interface Delivery {
  id: string;
  webhookId: string;
  webhookKey: string;
  url: string;
  platformId: string;
  clientKey: string;
  contractKey: string;
  event: ContractEventType;
  cause?: string;
  body: string;
  createdAt: number;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  /** Retries used so far (index of the next step of the schedule). */
  retries: number;
  /** The automatic sequence (first attempt, then retries) is still going. */
  active: boolean;
  inFlight: number;
  timer?: ClockTimer | undefined;
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

export interface DeliveryAttemptView {
  at: string;
  trigger: AttemptTrigger;
  webhookTimestamp?: number;
  statusCode?: number;
  error?: string;
  durationMs: number;
  cause?: string;
  faults?: ReceiverFaultHit[];
  delayMs?: number;
}

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

export type OutageMode = { status: number; retryAfter?: number } | { refuse: true };

export interface OutageSpec {
  webhookKey?: string;
  url?: string;
  clientKey?: string;
  platformId?: string;
  mode: OutageMode;
  /** Sandbox epoch ms at which the outage ends by itself. */
  until?: number;
  cause?: string;
}

interface Outage extends OutageSpec {
  id: string;
}

export interface DispatcherOptions {
  timeoutMs?: number;
  logLimit?: number;
  userAgent: string;
  /** Receiver faults to apply to deliveries (receiver-faults.ts). */
  receiverFaults: ReceiverFaults;
}

interface Lane {
  queue: Delivery[];
  running: boolean;
  /** Deliveries an out-of-order fault holds back, in event order. */
  held: Delivery[];
}

export class WebhookDispatcher {
  private readonly log = new Map<string, Delivery>();
  private readonly lanes = new Map<string, Lane>();
  private readonly outages = new Map<string, Outage>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly abort = new AbortController();
  private readonly unsubscribe: Array<() => void> = [];
  private readonly timeoutMs: number;
  private readonly logLimit: number;
  private readonly receiverFaults: ReceiverFaults;
  private deliverySeq = 0;
  private outageSeq = 0;
  private closed = false;

  constructor(
    private readonly services: Services,
    private readonly options: DispatcherOptions,
  ) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
    this.logLimit = options.logLimit ?? DEFAULT_DELIVERY_LOG_LIMIT;
    this.receiverFaults = options.receiverFaults;
    const { bus } = services;
    for (const type of CONTRACT_EVENT_TYPES) this.unsubscribe.push(bus.on(type, (event) => this.onEvent(event)));
    this.unsubscribe.push(bus.on('webhook.deleted', (e) => this.onWebhookDeleted(e.platformId, e.webhookKey)));
    this.unsubscribe.push(bus.on('sandbox.reset', (e) => this.onReset(e.platformId)));
  }

  private get clock(): Clock {
    return this.services.clock;
  }

  /** The delivery log, oldest first. */
  deliveries(filter: DeliveryFilter = {}): DeliveryView[] {
    const out: DeliveryView[] = [];
    for (const d of this.log.values()) {
      if (filter.webhookKey !== undefined && d.webhookKey !== filter.webhookKey) continue;
      if (filter.event !== undefined && d.event !== filter.event) continue;
      if (filter.status !== undefined && d.status !== filter.status) continue;
      if (filter.contractKey !== undefined && d.contractKey !== filter.contractKey) continue;
      if (filter.clientKey !== undefined && d.clientKey !== filter.clientKey) continue;
      if (filter.platformId !== undefined && d.platformId !== filter.platformId) continue;
      out.push(view(d));
    }
    return out;
  }

  delivery(id: string): DeliveryView | undefined {
    const d = this.log.get(id);
    return d ? view(d) : undefined;
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
    await this.track(this.attempt(d, 'redeliver'));
    return view(d);
  }

  /** Simulates a receiver outage (for scenarios): matching attempts fail without contacting the receiver. */
  startOutage(spec: OutageSpec): string {
    const id = `out_${++this.outageSeq}`;
    this.outages.set(id, { ...spec, id });
    return id;
  }

  endOutage(id: string): void {
    this.outages.delete(id);
  }

  /** Aborts attempts in flight and stops sending; resolves once they have settled. */
  async close(): Promise<void> {
    this.closed = true;
    for (const off of this.unsubscribe) off();
    for (const d of this.log.values()) {
      d.timer?.cancel();
      d.held?.timer.cancel();
    }
    this.abort.abort();
    await Promise.allSettled([...this.inFlight]);
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
      const d: Delivery = {
        id: `dlv_${++this.deliverySeq}`,
        webhookId: event.id,
        webhookKey: webhook.webhookKey,
        url: webhook.url,
        platformId: webhook.platformId,
        clientKey: webhook.clientKey,
        contractKey: event.data.contractKey,
        event: event.type,
        ...(event.cause !== undefined ? { cause: event.cause } : {}),
        body,
        createdAt: this.clock.now(),
        status: 'pending',
        attempts: [],
        retries: 0,
        active: true,
        inFlight: 0,
        removed: false,
      };
      this.log.set(d.id, d);
      this.enforceCap();
      this.enqueue(d);
    }
  }

  private enqueue(d: Delivery): void {
    let lane = this.lanes.get(d.webhookKey);
    if (!lane) this.lanes.set(d.webhookKey, (lane = { queue: [], running: false, held: [] }));
    lane.queue.push(d);
    this.runLaneIfIdle(d.webhookKey, lane);
  }

  private runLaneIfIdle(webhookKey: string, lane: Lane): Promise<void> | undefined {
    if (lane.running) return undefined;
    lane.running = true;
    return this.track(this.runLane(webhookKey, lane));
  }

  /**
   * First attempts to one endpoint, one at a time, in event order. An out-of-order fault takes a delivery out of
   * the line (`lane.held`); the next delivery that may overtake it goes out first, then the held one.
   */
  private async runLane(webhookKey: string, lane: Lane): Promise<void> {
    try {
      for (let d = lane.queue.shift(); d; d = lane.queue.shift()) {
        if (d.removed || !d.active || this.closed) continue;
        if (d.releasedHit) {
          // A held delivery whose hold ran out with nothing overtaking it.
          const hit = d.releasedHit;
          d.releasedHit = undefined;
          await this.firstAttempt(d, [hit]);
          continue;
        }
        lane.held = lane.held.filter((h) => !h.removed && h.active);
        const overtaken = lane.held.filter((h) => !h.held!.sameContract || h.contractKey === d.contractKey);
        if (overtaken.length === 0) {
          const fault = this.receiverFaults.take(['out-of-order'], target(d));
          if (fault) {
            this.hold(d, lane, fault);
            continue;
          }
        }
        await this.firstAttempt(d, []);
        for (const h of overtaken) {
          if (!h.held) continue;
          const { hit } = h.held;
          h.held.timer.cancel();
          h.held = undefined;
          lane.held = lane.held.filter((other) => other !== h);
          if (h.removed || !h.active || this.closed) continue;
          await this.firstAttempt(h, [{ ...hit, detail: `held back, sent after ${d.id} (${d.event})` }]);
        }
      }
    } finally {
      lane.running = false;
      if (this.lanes.get(webhookKey) === lane && lane.queue.length === 0 && lane.held.length === 0)
        this.lanes.delete(webhookKey);
    }
  }

  /** Takes a delivery out of its lane until a later one overtakes it, or `holdFor` of sandbox time has passed. */
  private hold(
    d: Delivery,
    lane: Lane,
    fault: ActiveReceiverFault & { spec: { kind: 'out-of-order'; sameContract: boolean; holdFor: string | number } },
  ): void {
    const until = this.clock.now() + faultDurationMs(fault.spec.holdFor);
    d.held = {
      hit: faultHit(fault),
      sameContract: fault.spec.sameContract,
      until,
      timer: this.clock.schedule(until, () => this.releaseHeld(d), `webhook hold ${d.id}`),
    };
    lane.held.push(d);
  }

  private releaseHeld(d: Delivery): Promise<void> | undefined {
    const held = d.held;
    d.held = undefined;
    if (!held || d.removed || !d.active || this.closed) return undefined;
    let lane = this.lanes.get(d.webhookKey);
    if (!lane) this.lanes.set(d.webhookKey, (lane = { queue: [], running: false, held: [] }));
    lane.held = lane.held.filter((h) => h !== d);
    d.releasedHit = { ...held.hit, detail: 'held back; nothing overtook it within holdFor, so sent then' };
    lane.queue.unshift(d);
    return this.runLaneIfIdle(d.webhookKey, lane);
  }

  /** The first attempt, and the second copy a `duplicate` fault asks for right after it. */
  private async firstAttempt(d: Delivery, faults: ReceiverFaultHit[]): Promise<void> {
    await this.attempt(d, 'first', faults);
    if (d.removed || this.closed || !this.webhookOf(d)) return;
    const dup = this.receiverFaults.take(['duplicate'], target(d));
    if (dup)
      await this.attempt(d, 'duplicate', [
        { ...faultHit(dup), detail: 'the same webhook-id and body sent again right after the first attempt' },
      ]);
  }

  private async attempt(d: Delivery, trigger: AttemptTrigger, faults: ReceiverFaultHit[] = []): Promise<void> {
    const webhook = this.webhookOf(d);
    if (!webhook || this.closed) return;
    let at = this.clock.now();
    let outage = this.outageFor(d, at);
    let delayMs: number | undefined;
    let signedAt: number | undefined;
    let badSignature: SignatureFault | undefined;
    let outcome: AttemptOutcome;
    d.inFlight++;
    try {
      if (!outage && trigger === 'first') {
        const slow = this.receiverFaults.take(['slow'], target(d));
        if (slow) {
          delayMs = faultDurationMs(slow.spec.delay);
          faults.push({ ...faultHit(slow), detail: `first attempt sent ${delayMs} ms (real time) late` });
          await wallDelay(delayMs, this.abort.signal);
          if (d.removed || this.closed || !this.webhookOf(d)) return;
          at = this.clock.now();
          outage = this.outageFor(d, at);
        }
      }
      if (outage) {
        outcome = simulatedOutcome(outage, at);
      } else {
        signedAt = wallNow();
        const sig = this.receiverFaults.take(['bad-signature', 'stale-timestamp'], target(d));
        if (sig?.spec.kind === 'bad-signature') {
          badSignature = sig.spec.signature;
          faults.push({ ...faultHit(sig), detail: SIGNATURE_DETAIL[badSignature] });
        } else if (sig?.spec.kind === 'stale-timestamp') {
          const age = faultDurationMs(sig.spec.age);
          signedAt -= age;
          faults.push({ ...faultHit(sig), detail: `signed with a webhook-timestamp ${age / 1000} s before wall time` });
        }
        outcome = await postSigned({
          url: d.url,
          secret: webhook.secret,
          webhookId: d.webhookId,
          at,
          signedAt,
          badSignature,
          body: d.body,
          timeoutMs: this.timeoutMs,
          signal: this.abort.signal,
          userAgent: this.options.userAgent,
        });
      }
    } finally {
      d.inFlight--;
    }
    if (d.removed || this.closed) return;
    d.attempts.push({
      at,
      trigger,
      ...(signedAt !== undefined ? { webhookTimestamp: Math.floor(signedAt / 1000) } : {}),
      ...(outcome.statusCode !== undefined ? { statusCode: outcome.statusCode } : {}),
      ...(outcome.error !== undefined ? { error: outcome.error } : {}),
      durationMs: outcome.durationMs,
      ...(outage ? { outageId: outage.id, ...(outage.cause !== undefined ? { cause: outage.cause } : {}) } : {}),
      ...(faults.length > 0 ? { faults } : {}),
      ...(delayMs !== undefined ? { delayMs } : {}),
    });
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
    const at = this.clock.now() + (retryAfterMs ?? step);
    d.nextAttemptAt = at;
    d.status = 'pending';
    d.timer = this.clock.schedule(at, () => this.runRetry(d), `webhook retry ${d.id}`);
  }

  private runRetry(d: Delivery): Promise<void> | undefined {
    d.timer = undefined;
    d.nextAttemptAt = undefined;
    if (d.removed || !d.active) return undefined;
    return this.track(this.attempt(d, 'retry'));
  }

  private finish(d: Delivery, status: DeliveryStatus): void {
    d.status = status;
    d.active = false;
    d.timer?.cancel();
    d.timer = undefined;
    d.nextAttemptAt = undefined;
    d.held?.timer.cancel();
    d.held = undefined;
  }

  private onWebhookDeleted(platformId: string, webhookKey: string): void {
    for (const d of this.log.values()) {
      if (d.webhookKey !== webhookKey || d.platformId !== platformId || !d.active) continue;
      d.stopped = 'webhook deleted';
      this.finish(
        d,
        d.attempts.some((a) => a.statusCode !== undefined && a.statusCode >= 200 && a.statusCode < 300)
          ? 'delivered'
          : 'failed',
      );
    }
    this.lanes.delete(webhookKey);
  }

  private onReset(platformId: string | undefined): void {
    for (const d of [...this.log.values()]) {
      if (platformId === undefined || d.platformId === platformId) this.remove(d);
    }
    for (const [id, o] of this.outages) {
      if (platformId === undefined || o.platformId === platformId) this.outages.delete(id);
    }
    // Receiver faults belong to the whole sandbox: a full reset removes them, a platform's reset does not.
    if (platformId === undefined) this.receiverFaults.clear();
    for (const [key, lane] of this.lanes) {
      lane.held = lane.held.filter((d) => !d.removed);
      if (!lane.running && lane.queue.length === 0 && lane.held.length === 0) this.lanes.delete(key);
    }
  }

  private remove(d: Delivery): void {
    d.removed = true;
    d.active = false;
    d.timer?.cancel();
    d.timer = undefined;
    d.held?.timer.cancel();
    d.held = undefined;
    this.log.delete(d.id);
  }

  /** Keeps the log under its cap: finished deliveries go first, oldest first; pending ones only if nothing else is left. */
  private enforceCap(): void {
    while (this.log.size > this.logLimit) {
      let victim: Delivery | undefined;
      for (const d of this.log.values()) {
        if (!d.active && d.inFlight === 0) {
          victim = d;
          break;
        }
      }
      victim ??= this.log.values().next().value;
      if (!victim) return;
      this.remove(victim);
    }
  }

  private webhookOf(d: Delivery): WebhookRecord | undefined {
    const w = this.services.store.webhooks.get(d.webhookKey);
    return w && w.platformId === d.platformId ? w : undefined;
  }

  private outageFor(d: Delivery, at: number): Outage | undefined {
    for (const [id, o] of this.outages) {
      if (o.until !== undefined && at >= o.until) {
        this.outages.delete(id);
        continue;
      }
      if (o.webhookKey !== undefined && o.webhookKey !== d.webhookKey) continue;
      if (o.url !== undefined && o.url !== d.url) continue;
      if (o.clientKey !== undefined && o.clientKey !== d.clientKey) continue;
      if (o.platformId !== undefined && o.platformId !== d.platformId) continue;
      return o;
    }
    return undefined;
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    void work.then(
      () => this.inFlight.delete(work),
      () => this.inFlight.delete(work),
    );
    return this.clock.work.track(work);
  }
}

const SIGNATURE_DETAIL: Record<SignatureFault, string> = {
  'wrong-secret': 'signed with a wrong secret',
  corrupted: 'signature corrupted',
  missing: 'sent without a webhook-signature header',
};

function faultHit(f: ActiveReceiverFault): ReceiverFaultHit {
  return { id: f.id, kind: f.spec.kind, source: f.source };
}

function target(d: Delivery): FaultTarget {
  return {
    event: d.event,
    webhookKey: d.webhookKey,
    url: d.url,
    clientKey: d.clientKey,
    contractKey: d.contractKey,
    platformId: d.platformId,
  };
}

function simulatedOutcome(outage: Outage, at: number): AttemptOutcome {
  if ('refuse' in outage.mode) return { ok: false, error: 'connection refused (simulated outage)', durationMs: 0 };
  const { status, retryAfter } = outage.mode;
  const ok = status >= 200 && status < 300;
  const retryAfterMs =
    (status === 429 || status === 503) && retryAfter !== undefined
      ? parseRetryAfter(String(Math.max(0, Math.round(retryAfter))), at)
      : undefined;
  return { ok, statusCode: status, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}), durationMs: 0 };
}

function view(d: Delivery): DeliveryView {
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
    })),
    ...(d.nextAttemptAt !== undefined ? { nextAttemptAt: isoTime(d.nextAttemptAt) } : {}),
    ...(d.held !== undefined ? { held: { faultId: d.held.hit.id, until: isoTime(d.held.until) } } : {}),
    ...(d.stopped !== undefined ? { stopped: d.stopped } : {}),
    payload: JSON.parse(d.body) as unknown,
  };
}

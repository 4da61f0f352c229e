/**
 * The webhook dispatcher (decisions §7): turns contract events on the bus into real, signed HTTP POSTs to the
 * client's webhooks, retries failures on the sandbox clock, and keeps a capped, inspectable delivery log.
 *
 * Ordering: every endpoint (webhook) has a lane. First attempts wait in the lane and go out one at a time, in
 * event order, so a healthy receiver sees `created, sent, …` in order. A failed delivery leaves the lane at
 * once and is retried by a clock timer on its own, so a retry never holds back newer events. Lanes run
 * independently of each other and of the request that emitted the event: a dead receiver slows nobody else.
 *
 * Times: each attempt is signed with wall time (`webhook-timestamp`), so a receiver's verifier accepts it whatever
 * the sandbox clock says; retries are scheduled, and attempts logged, in sandbox time (decisions §7, §8).
 */
import { type Clock, type ClockTimer, wallNow } from '../clock.js';
import type { Services } from '../context.js';
import { ApiError } from '../errors.js';
import { CONTRACT_EVENT_TYPES, type ContractEvent, type ContractEventType, WEBHOOK_FLAG_FOR } from '../events/types.js';
import type { WebhookRecord } from '../store/records.js';
import { isoTime } from '../time-format.js';
import { type AttemptOutcome, postSigned } from './sender.js';
import { DEFAULT_DELIVERY_LOG_LIMIT, DEFAULT_WEBHOOK_TIMEOUT_MS, RETRY_SCHEDULE_MS, parseRetryAfter } from './schedule.js';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';
export type AttemptTrigger = 'first' | 'retry' | 'redeliver';

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
  attempts: Array<{ at: string; trigger: AttemptTrigger; webhookTimestamp?: number; statusCode?: number; error?: string; durationMs: number; cause?: string }>;
  nextAttemptAt?: string;
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
}

interface Lane {
  queue: Delivery[];
  running: boolean;
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
  private deliverySeq = 0;
  private outageSeq = 0;
  private closed = false;

  constructor(
    private readonly services: Services,
    private readonly options: DispatcherOptions,
  ) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
    this.logLimit = options.logLimit ?? DEFAULT_DELIVERY_LOG_LIMIT;
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
    if (!d) throw ApiError.notFound(`Webhook delivery ${id} not found`);
    if (!this.webhookOf(d)) throw ApiError.conflict(`Webhook ${d.webhookKey} was deleted; its deliveries cannot be sent again`);
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
    for (const d of this.log.values()) d.timer?.cancel();
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
    if (!lane) this.lanes.set(d.webhookKey, (lane = { queue: [], running: false }));
    lane.queue.push(d);
    if (!lane.running) {
      lane.running = true;
      void this.track(this.runLane(d.webhookKey, lane));
    }
  }

  /** First attempts to one endpoint, one at a time, in event order. */
  private async runLane(webhookKey: string, lane: Lane): Promise<void> {
    try {
      for (let d = lane.queue.shift(); d; d = lane.queue.shift()) {
        if (d.removed || !d.active || this.closed) continue;
        await this.attempt(d, 'first');
      }
    } finally {
      lane.running = false;
      if (this.lanes.get(webhookKey) === lane && lane.queue.length === 0) this.lanes.delete(webhookKey);
    }
  }

  private async attempt(d: Delivery, trigger: AttemptTrigger): Promise<void> {
    const webhook = this.webhookOf(d);
    if (!webhook || this.closed) return;
    const at = this.clock.now();
    const outage = this.outageFor(d, at);
    // Signed with wall time: the receiver's verifier judges webhook-timestamp against its own clock.
    const signedAt = outage ? undefined : wallNow();
    d.inFlight++;
    let outcome: AttemptOutcome;
    try {
      outcome =
        outage || signedAt === undefined
          ? simulatedOutcome(outage!, at)
          : await postSigned({
            url: d.url,
            secret: webhook.secret,
            webhookId: d.webhookId,
            at,
            signedAt,
            body: d.body,
            timeoutMs: this.timeoutMs,
            signal: this.abort.signal,
            userAgent: this.options.userAgent,
          });
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
    });
    if (outcome.ok) {
      this.finish(d, 'delivered');
    } else if (trigger === 'redeliver') {
      // A manual redelivery is one extra attempt: it does not restart or advance the automatic schedule.
      d.status = d.active ? 'pending' : 'failed';
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
  }

  private onWebhookDeleted(platformId: string, webhookKey: string): void {
    for (const d of this.log.values()) {
      if (d.webhookKey !== webhookKey || d.platformId !== platformId || !d.active) continue;
      d.stopped = 'webhook deleted';
      this.finish(d, d.attempts.some((a) => a.statusCode !== undefined && a.statusCode >= 200 && a.statusCode < 300) ? 'delivered' : 'failed');
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
  }

  private remove(d: Delivery): void {
    d.removed = true;
    d.active = false;
    d.timer?.cancel();
    d.timer = undefined;
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

function simulatedOutcome(outage: Outage, at: number): AttemptOutcome {
  if ('refuse' in outage.mode) return { ok: false, error: 'connection refused (simulated outage)', durationMs: 0 };
  const { status, retryAfter } = outage.mode;
  const ok = status >= 200 && status < 300;
  const retryAfterMs = (status === 429 || status === 503) && retryAfter !== undefined ? parseRetryAfter(String(Math.max(0, Math.round(retryAfter))), at) : undefined;
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
    })),
    ...(d.nextAttemptAt !== undefined ? { nextAttemptAt: isoTime(d.nextAttemptAt) } : {}),
    ...(d.stopped !== undefined ? { stopped: d.stopped } : {}),
    payload: JSON.parse(d.body) as unknown,
  };
}

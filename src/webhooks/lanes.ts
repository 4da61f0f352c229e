/**
 * The order of first attempts (docs/webhooks.md, "Order"): every endpoint (webhook) has a lane. First attempts wait
 * in the lane and leave in event order; the events of one contract go one at a time, so a healthy receiver sees each
 * contract's `created, sent, …` in order, while up to `concurrency` first attempts about different contracts are in
 * flight at once (with one at a time, the 1,000-event fan-out of docs/benchmarks.md waited on every receiver's answer
 * in turn: 0.58x a plain fetch() loop). Lanes run independently of each other and of the request that emitted the
 * event: a dead receiver slows nobody else.
 *
 * An `out-of-order` receiver fault (asked through the hook) takes a delivery out of the line: it waits until a
 * later delivery to the endpoint (about the same contract, unless `sameContract: false`) has gone out, or until
 * `holdFor` of sandbox time has passed, and goes out then.
 */
import type { Clock } from '../core/clock.js';
import { later } from '../core/time-range.js';
import type { Delivery } from './delivery.js';
import type { ReceiverFaultHit, ReceiverFaultHook } from './receiver-faults.js';
import { target } from './delivery.js';

interface Lane {
  /** The tenant of the endpoint: its clock waits for the lane's work. */
  platformId: string;
  queue: Delivery[];
  running: boolean;
  /** Deliveries an out-of-order fault holds back, in event order. */
  held: Delivery[];
  /** Wakes a running lane that waits for its attempts in flight: a delivery was queued. */
  wake: (() => void) | undefined;
}

export interface LaneDeps {
  /** The clock of a delivery's (or a lane's) tenant. */
  clockOf(d: { platformId: string }): Clock;
  faults: ReceiverFaultHook;
  /** Sends a delivery's first attempt (and what follows it), logging `hits` on it. */
  send(d: Delivery, hits: ReceiverFaultHit[]): Promise<void>;
  /** Hands lane work to the clock of its tenant, so `clock.advance()` waits for it. */
  track<T>(d: { platformId: string }, work: Promise<T>): Promise<T>;
  closed(): boolean;
  /** Sets (at `until`) or cancels the kept timer (core/timers.ts) that releases a held delivery (`release`). */
  holdTimer(d: Delivery, until: number | undefined): void;
  /** The delivery's kept record changed (core/kept.ts). */
  changed(d: Delivery): void;
  /** First attempts in flight at once to one endpoint, each about a different contract (1: one at a time). */
  concurrency: number;
}

export class Lanes {
  private readonly lanes = new Map<string, Lane>();
  /** While set, deliveries wait in their lanes (holdUntil). */
  private gate: Promise<void> | undefined;

  constructor(private readonly deps: LaneDeps) {}

  enqueue(d: Delivery): void {
    const lane = this.laneOf(d);
    lane.queue.push(d);
    if (!this.gate) this.runIfIdle(d.webhookKey, lane);
  }

  /**
   * Deliveries wait in their lanes until `ready` settles, then go out in order. The lanes do not run meanwhile,
   * so nothing that waits for the clock's work (a scenario's start) waits for them.
   */
  holdUntil(ready: Promise<void>): void {
    const gate = ready.then(
      () => undefined,
      () => undefined,
    );
    this.gate = gate;
    void gate.then(() => {
      if (this.gate !== gate) return;
      this.gate = undefined;
      for (const [key, lane] of this.lanes) if (lane.queue.length > 0) this.runIfIdle(key, lane);
    });
  }

  /**
   * A delivery kept across a restart, put back in its lane (core/kept.ts): still waiting for its first attempt, or
   * held back by an out-of-order fault (its kept timer releases it). Called oldest first, so lanes keep event order.
   */
  restore(d: Delivery): void {
    if (d.held) this.laneOf(d).held.push(d);
    else this.enqueue(d);
  }

  /** The webhook is gone: its lane with it. */
  drop(webhookKey: string): void {
    this.lanes.delete(webhookKey);
  }

  /**
   * After deliveries left the log (a reset): lanes with nothing left to do go, a running one too (a reset may have
   * dropped the clock timer it waited for; if it still runs, it ends on its own, and new deliveries get a new lane).
   */
  prune(): void {
    for (const [key, lane] of this.lanes) {
      lane.queue = lane.queue.filter((d) => !d.removed);
      lane.held = lane.held.filter((d) => !d.removed);
      if (lane.queue.length === 0 && lane.held.length === 0) this.lanes.delete(key);
    }
  }

  private laneOf(d: Delivery): Lane {
    let lane = this.lanes.get(d.webhookKey);
    if (!lane) {
      lane = { platformId: d.platformId, queue: [], running: false, held: [], wake: undefined };
      this.lanes.set(d.webhookKey, lane);
    }
    return lane;
  }

  private runIfIdle(webhookKey: string, lane: Lane): void {
    if (lane.running) {
      lane.wake?.();
      return;
    }
    lane.running = true;
    // After everything else due at this instant (docs/scenarios.md, "Order"): the reactions to the event, timeline
    // steps and fault or outage starts and ends of the same instant are in place before a first attempt leaves.
    this.deps
      .clockOf(lane)
      .atInstantEnd(
        () => this.deps.track(lane, this.run(webhookKey, lane)),
        `webhook lane ${webhookKey}`,
        lane.platformId,
      );
  }

  /**
   * First attempts in event order, up to `concurrency` at once, never two of one contract: a delivery whose contract
   * has one in flight waits for it while later ones about other contracts leave. A held delivery goes out right after
   * the first one that may overtake it.
   */
  private async run(webhookKey: string, lane: Lane): Promise<void> {
    // The contracts with a first attempt in flight; each one's end wakes the lane (one callback per attempt, not
    // one per attempt in flight each time the lane waits).
    const inFlight = new Set<string>();
    try {
      for (;;) {
        const next =
          inFlight.size < this.deps.concurrency ? lane.queue.findIndex((d) => !inFlight.has(d.contractKey)) : -1;
        if (next < 0) {
          if (inFlight.size === 0) break;
          // Until an attempt in flight ends or another delivery is queued.
          await new Promise<void>((resolve) => {
            lane.wake = resolve;
          });
          lane.wake = undefined;
          continue;
        }
        const d = lane.queue.splice(next, 1)[0]!;
        const sending = this.sendFirst(d, lane);
        if (!sending) continue;
        const { contractKey } = d;
        inFlight.add(contractKey);
        const ended = () => {
          inFlight.delete(contractKey);
          lane.wake?.();
        };
        void sending.then(ended, ended);
      }
    } finally {
      lane.running = false;
      if (this.lanes.get(webhookKey) === lane && lane.queue.length === 0 && lane.held.length === 0)
        this.lanes.delete(webhookKey);
    }
  }

  /** Sends one delivery's first attempt, and then those it overtakes; undefined when it is gone or held back. */
  private sendFirst(d: Delivery, lane: Lane): Promise<void> | undefined {
    const { send } = this.deps;
    if (this.gone(d)) return undefined;
    if (d.releasedHit) {
      // A held delivery whose hold ran out with nothing overtaking it.
      const hit = d.releasedHit;
      d.releasedHit = undefined;
      return send(d, [hit]);
    }
    lane.held = lane.held.filter((h) => !h.removed && h.active);
    const overtaken = lane.held.filter((h) => !h.held!.sameContract || h.contractKey === d.contractKey);
    if (overtaken.length === 0 && this.hold(d, lane)) return undefined;
    // Out of the held list now, so that no other delivery in flight takes them too.
    const after = overtaken.map((h) => {
      const { hit } = h.held!;
      this.deps.holdTimer(h, undefined);
      h.held = undefined;
      this.deps.changed(h);
      lane.held = lane.held.filter((other) => other !== h);
      return { h, hit };
    });
    return (async () => {
      await send(d, []);
      for (const { h, hit } of after) {
        if (this.gone(h)) continue;
        await send(h, [{ ...hit, detail: `held back, sent after ${d.id} (${d.event})` }]);
      }
    })();
  }

  private gone(d: Delivery): boolean {
    return d.removed || !d.active || this.deps.closed();
  }

  /** Takes a delivery out of its lane if an out-of-order fault says so; true when it did. */
  private hold(d: Delivery, lane: Lane): boolean {
    const fault = this.deps.faults.holdBack(target(d));
    if (!fault) return false;
    const until = later(this.deps.clockOf(d).now(), fault.holdForMs);
    d.held = { hit: fault.hit, sameContract: fault.sameContract, until };
    this.deps.holdTimer(d, until);
    this.deps.changed(d);
    lane.held.push(d);
    return true;
  }

  /** A held delivery's hold ran out (its kept timer): it goes out next. */
  release(d: Delivery): void {
    const held = d.held;
    d.held = undefined;
    if (!held || d.removed || !d.active || this.deps.closed()) return;
    const lane = this.laneOf(d);
    lane.held = lane.held.filter((h) => h !== d);
    d.releasedHit = { ...held.hit, detail: 'held back; nothing overtook it within holdFor, so sent then' };
    this.deps.changed(d);
    lane.queue.unshift(d);
    this.runIfIdle(d.webhookKey, lane);
  }
}

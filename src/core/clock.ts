/**
 * The sandbox clock: the one place that reads sandbox time (real time, for what is judged outside the sandbox, is
 * wall-time.ts's).
 *
 * Everything time-dependent in the sandbox (token expiry, webhook retries, scenario steps, timestamps in
 * responses) asks this clock, so a test can freeze it, jump it forward and assert on the result.
 *
 * Timers live in a queue ordered by due time. In `real` mode one wall-clock `setTimeout` is armed for the
 * earliest of them. `advance()` and `set()` run every timer that falls due, in time order, with the clock
 * standing at each timer's due time while it runs, and only return once the work those timers started has
 * settled (see WorkTracker), so a test can assert right after advancing.
 */
import { pause } from './pause.js';
import { TIME_RANGE, inTimeRange, later } from './time-range.js';
import { type OrderedTimer, TIMER_RANK, insertTimer } from './timer-order.js';
import { monotonicNow } from './wall-time.js';
import { WorkTracker } from './work-tracker.js';

export { WorkTracker } from './work-tracker.js';

export type ClockMode = 'real' | 'frozen';

export interface ClockTimer {
  readonly id: number;
  readonly at: number;
  readonly label: string;
  cancel(): void;
}

/** A timer in a clock's queue, ordered by its due time, rank and sequence (timer-order.ts). */
interface QueuedTimer extends OrderedTimer {
  id: number;
  label: string;
  fn: () => unknown;
  cancelled: boolean;
  /** The tenant whose work it is (a platformId), so it can move to the tenant's own clock (tenant-clocks.ts). */
  owner: string | undefined;
  /** The clock whose queue holds it. */
  home: Clock;
}

export interface ClockState {
  now: string;
  mode: ClockMode;
  pendingTimers: number;
  nextTimerAt?: string;
  /** Scoped to a tenant: whether the tenant has its own clock (else it follows the sandbox's). */
  own?: boolean;
}

/**
 * A long advance gives the event loop a turn every so many timers, or every few milliseconds of work, whichever
 * comes first, so other requests (another tenant's, the health probe) are answered meanwhile: the timers run
 * between two turns are a slice (docs/benchmarks.md, the stall of a 100-year advance).
 */
const TIMERS_PER_TURN = 64;
const TURN_AFTER_MS = 10;

/** What a clock keeps across a restart (core/kept.ts): frozen at a time, or running at an offset from wall time. */
export type ClockRecord = { mode: 'frozen'; now: number } | { mode: 'real'; offset: number };

export class Clock {
  private mode: ClockMode;
  /** Told when the clock's mode or time changes (not as a running clock's time passes): tenant-clocks.ts keeps it. */
  onChange: () => void = () => {};
  /** Sandbox time minus wall time, in real mode. */
  private offset = 0;
  /** Sandbox time while frozen. */
  private frozenAt = 0;
  private readonly queue: QueuedTimer[] = [];
  private seq = 0;
  private wallTimer: NodeJS.Timeout | undefined;
  private draining: Promise<void> | undefined;
  private running = false;
  /** While a drain runs a timer: the instant it stands at (its due time). */
  private instant: number | undefined;
  /** What waits for the end of the present instant, outside a drain (atInstantEnd). */
  private readonly instantEnd: Array<() => unknown> = [];
  private closed = false;

  constructor(
    options: { mode?: ClockMode; start?: number } = {},
    readonly work: WorkTracker = new WorkTracker(),
  ) {
    this.mode = options.mode ?? 'real';
    const start = options.start ?? Date.now();
    if (this.mode === 'frozen') this.frozenAt = start;
    else this.offset = start - Date.now();
  }

  /** Sandbox time in epoch milliseconds. */
  now(): number {
    return this.mode === 'frozen' ? this.frozenAt : Date.now() + this.offset;
  }

  get isFrozen(): boolean {
    return this.mode === 'frozen';
  }

  state(): ClockState {
    const next = this.nextTimer();
    return {
      now: new Date(this.now()).toISOString(),
      mode: this.mode,
      pendingTimers: this.pendingCount(),
      ...(next ? { nextTimerAt: new Date(next.at).toISOString() } : {}),
    };
  }

  freeze(): void {
    if (this.mode === 'frozen') return;
    this.frozenAt = this.now();
    this.mode = 'frozen';
    this.disarm();
    this.onChange();
  }

  unfreeze(): void {
    if (this.mode === 'real') return;
    this.offset = this.frozenAt - Date.now();
    this.mode = 'real';
    this.arm();
    this.onChange();
  }

  /** Its mode and time as kept: a frozen clock's time, a running clock's offset from wall time. */
  record(): ClockRecord {
    return this.mode === 'frozen' ? { mode: 'frozen', now: this.frozenAt } : { mode: 'real', offset: this.offset };
  }

  /**
   * Back to a kept mode and time, running no timer: a frozen clock reads what it read; a running one keeps its offset
   * from wall time, so it has run on meanwhile, as a wall clock does.
   */
  restore(record: ClockRecord): void {
    this.mode = record.mode;
    if (record.mode === 'frozen') this.frozenAt = record.now;
    else this.offset = record.offset;
    this.arm();
  }

  /** Runs the timers already due (restored ones: a frozen clock runs them at once, not at its next advance). */
  runDue(): void {
    const next = this.queue[0];
    if (next && next.at <= this.now() && !this.running) void this.runUntil(this.now()).catch(() => undefined);
  }

  /** Moves sandbox time forward by `ms`, running every timer that falls due on the way. */
  async advance(ms: number): Promise<void> {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('advance takes a non-negative duration');
    if (!inTimeRange(this.now() + ms))
      throw new RangeError('advance would move the clock past 9999-12-31T23:59:59.999Z');
    await this.runUntil(this.now() + ms);
  }

  /** Jumps to `to`. Forward jumps run the timers on the way; backward jumps run nothing. */
  async set(to: number): Promise<void> {
    if (!inTimeRange(to)) throw new RangeError('the clock can be set to times from 0000-01-01 to 9999-12-31 only');
    if (to >= this.now()) {
      await this.runUntil(to);
    } else {
      await this.leaveInstant(true);
      this.moveTo(to);
      this.arm();
    }
  }

  /**
   * Runs `fn` at sandbox time `at` (or at once, on the next drain, if `at` is already past). `owner`: the tenant
   * (platformId) whose work it is, when it has one. `rank` places it among timers due at the same instant
   * (TIMER_RANK).
   */
  schedule(
    at: number,
    fn: () => unknown,
    label = 'timer',
    owner?: string,
    rank: readonly number[] = TIMER_RANK.sandbox,
  ): ClockTimer {
    const timer: QueuedTimer = {
      id: ++this.seq,
      at: Math.min(at, TIME_RANGE.max),
      rank,
      seq: this.seq,
      label,
      fn,
      cancelled: false,
      owner,
      home: this,
    };
    insertTimer(this.queue, timer);
    this.arm();
    return {
      id: timer.id,
      at: timer.at,
      label,
      cancel: () => {
        timer.cancelled = true;
        const queue = timer.home.queue;
        const i = queue.indexOf(timer);
        if (i >= 0) queue.splice(i, 1);
      },
    };
  }

  /**
   * Runs `fn` after everything else due at this instant (docs/scenarios.md, "Order"): webhook deliveries leave so.
   * While the clock runs the timers of an instant, `fn` joins them as the last rank (TIMER_RANK.delivery); at any
   * other time it runs one turn of the event loop later, once the operation in hand and the reactions it set off
   * (microtasks) have finished, or as the clock next moves, before anything else. Either way the clock's work
   * includes it, so `advance()` waits for it.
   */
  atInstantEnd(fn: () => unknown, label: string, owner?: string): void {
    if (this.instant !== undefined) {
      this.schedule(this.instant, fn, label, owner, TIMER_RANK.delivery);
      return;
    }
    this.instantEnd.push(fn);
    if (this.instantEnd.length === 1) void this.work.track(pause().then(() => this.endInstant()));
  }

  /** Runs what waits for the end of the instant now (before the clock moves, it must: it belongs to this instant). */
  private endInstant(): Promise<unknown> {
    const due = this.instantEnd.splice(0);
    return Promise.all(due.map((fn) => this.work.track(Promise.resolve().then(fn))));
  }

  /** Runs `fn` after `ms` of sandbox time. */
  after(ms: number, fn: () => unknown, label?: string, owner?: string): ClockTimer {
    return this.schedule(later(this.now(), ms), fn, label, owner);
  }

  /** Hands the pending timers of one owner (a tenant getting its own clock) to another clock, due times kept. */
  moveTimers(owner: string, to: Clock): number {
    const moving = this.queue.filter((t) => t.owner === owner);
    if (moving.length === 0) return 0;
    this.queue.splice(0, this.queue.length, ...this.queue.filter((t) => t.owner !== owner));
    for (const timer of moving) {
      timer.home = to;
      timer.seq = ++to.seq;
      insertTimer(to.queue, timer);
    }
    this.arm();
    to.arm();
    return moving.length;
  }

  pendingCount(): number {
    return this.queue.length;
  }

  /** Nothing is due now and no tracked work is in flight (what `settle()` waits for, docs/library.md). */
  get idle(): boolean {
    const next = this.queue[0];
    return this.work.size === 0 && (next === undefined || next.at > this.now());
  }

  /** Drops every pending timer (used by reset). */
  clearTimers(): void {
    for (const t of this.queue) t.cancelled = true;
    this.queue.length = 0;
    this.disarm();
  }

  close(): void {
    this.closed = true;
    this.instantEnd.length = 0;
    this.clearTimers();
  }

  private nextTimer(): QueuedTimer | undefined {
    return this.queue[0];
  }

  private moveTo(t: number): void {
    if (this.mode === 'frozen') this.frozenAt = t;
    else this.offset = t - Date.now();
    this.onChange();
  }

  /**
   * Runs due timers one at a time up to `target`, then leaves the clock at `target`.
   * Concurrent calls are serialised so two advances never interleave their timers.
   */
  private async runUntil(target: number): Promise<void> {
    const previous = this.draining ?? Promise.resolve();
    const run = previous.then(() => this.drain(target));
    this.draining = run.finally(() => {
      if (this.draining === run) this.draining = undefined;
    });
    await run;
  }

  /**
   * Before the clock moves: what waits for the end of the present instant runs, and settles. Before it jumps (an
   * advance or a set), all work in flight settles too: a webhook attempt under way ends at the instant it left at, and
   * its retry is due counted from there, not from wherever the first timer on the way moved the clock.
   */
  private async leaveInstant(jump: boolean): Promise<void> {
    if (this.instantEnd.length > 0) await this.work.track(this.endInstant());
    else if (!jump) return;
    await this.work.settled();
  }

  private async drain(target: number): Promise<void> {
    this.disarm();
    this.running = true;
    let ran = 0;
    let turnAt = monotonicNow();
    try {
      await this.leaveInstant(target > this.now());
      for (;;) {
        const next = this.queue[0];
        if (next && next.at <= target) {
          this.queue.shift();
          if (next.cancelled) continue;
          if (next.at > this.now()) this.moveTo(next.at);
          this.instant = Math.max(next.at, this.instant ?? next.at);
          await this.work.track(Promise.resolve().then(next.fn));
          // Work a timer starts (a webhook attempt, say) may schedule further timers that are also due.
          await this.work.settled();
          if (++ran % TIMERS_PER_TURN === 0 || monotonicNow() - turnAt > TURN_AFTER_MS) {
            await pause();
            turnAt = monotonicNow();
          }
          continue;
        }
        await this.work.settled();
        if (this.queue[0] && this.queue[0].at <= target) continue;
        break;
      }
      if (target > this.now()) this.moveTo(target);
    } finally {
      this.running = false;
      this.instant = undefined;
      this.arm();
    }
  }

  /** In real mode, wakes up when the earliest timer is due by wall time. */
  private arm(): void {
    this.disarm();
    if (this.closed || this.mode !== 'real' || this.running) return;
    const next = this.queue[0];
    if (!next) return;
    const delay = Math.max(0, Math.min(next.at - this.now(), 2 ** 31 - 1));
    this.wallTimer = setTimeout(() => {
      this.wallTimer = undefined;
      void this.runUntil(this.now()).catch(() => undefined);
    }, delay);
    this.wallTimer.unref();
  }

  private disarm(): void {
    if (this.wallTimer) clearTimeout(this.wallTimer);
    this.wallTimer = undefined;
  }
}

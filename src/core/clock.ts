/**
 * The sandbox clock: the one place that reads wall time.
 *
 * Everything time-dependent in the sandbox (token expiry, webhook retries, scenario steps, timestamps in
 * responses) asks this clock, so a test can freeze it, jump it forward and assert on the result.
 *
 * Timers live in a queue ordered by due time. In `real` mode one wall-clock `setTimeout` is armed for the
 * earliest of them. `advance()` and `set()` run every timer that falls due, in time order, with the clock
 * standing at each timer's due time while it runs, and only return once the work those timers started has
 * settled (see WorkTracker), so a test can assert right after advancing.
 */
import { performance } from 'node:perf_hooks';
import { pause } from './pause.js';
import { WorkTracker } from './work-tracker.js';

export { WorkTracker } from './work-tracker.js';

export type ClockMode = 'real' | 'frozen';

export interface ClockTimer {
  readonly id: number;
  readonly at: number;
  readonly label: string;
  cancel(): void;
}

interface QueuedTimer {
  id: number;
  at: number;
  /** Among timers due at the same instant, lower ranks run first (see TIMER_RANK). */
  rank: readonly number[];
  seq: number;
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
 * The times the sandbox clock can show: years 0000 to 9999, the range every response format can print
 * (`toISOString` throws past ±8.64e15 ms and prints six-digit years beyond 9999).
 */
export const TIME_RANGE = {
  min: Date.parse('0000-01-01T00:00:00.000Z'),
  max: Date.parse('9999-12-31T23:59:59.999Z'),
} as const;

export function inTimeRange(ms: number): boolean {
  return Number.isFinite(ms) && ms >= TIME_RANGE.min && ms <= TIME_RANGE.max;
}

/** The longest duration anything takes: the span of TIME_RANGE, ~10,000 years (core/schemas.ts `duration`). */
export const MAX_DURATION_MS = TIME_RANGE.max - TIME_RANGE.min;

/**
 * `ms` after `from`, or the last instant the clock can show when that lies beyond it: a deadline or a delay counted
 * from a late moment stops at the end of time rather than becoming a time no format can print
 * (docs/scenarios.md, "Durations and times").
 */
export function later(from: number, ms: number): number {
  return Math.min(from + ms, TIME_RANGE.max);
}

/** Wall-clock milliseconds for measuring how long something took (never used as sandbox time). */
export function elapsedSince(startMs: number): number {
  return Math.round((performance.now() - startMs) * 100) / 100;
}

/**
 * Real wall time, for the few things judged against it outside the sandbox: a TLS certificate's validity and a
 * webhook's `webhook-timestamp` are checked by clients against their own clock, never the sandbox's.
 */
export function wallNow(): number {
  return Date.now();
}

/**
 * What tells wall time, epoch ms: the system's (`wallNow`) unless a test injects one, so what is judged in the time a
 * client waits (the readiness report's Retry-After check, docs/readiness.md) is tested without real sleeps.
 */
export type WallClock = () => number;

/**
 * Waits `ms` of real (wall-clock) time, whatever the sandbox clock does: for faults that model a slow network,
 * which a receiver experiences in wall time. Resolves early (without throwing) when `signal` aborts.
 */
export function wallDelay(ms: number, signal?: AbortSignal): Promise<void> {
  if (!(ms > 0) || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

export function monotonicNow(): number {
  return performance.now();
}

/**
 * The order of timers due at the same sandbox instant (docs/scenarios.md, "Order"): recipients' planned acts first,
 * then scenario steps (ranked further by load order and file order), then the sandbox's own timers (held
 * deliveries released, fault and outage ends), and webhook deliveries last (first attempts and retries), so a
 * fault or outage whose window starts at an instant covers every delivery attempted at it; timers of one rank run
 * in the order they were set.
 */
export const TIMER_RANK = { recipientAct: [0], scenarioStep: [1], sandbox: [2], delivery: [3] } as const;

function rankBefore(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? -1) - (b[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
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
    this.insert(timer);
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
      to.insert(timer);
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

  /** Binary insertion keeps the queue sorted by (at, rank, seq), so same-time timers of a rank run in scheduling order. */
  private insert(timer: QueuedTimer): void {
    let lo = 0;
    let hi = this.queue.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const other = this.queue[mid]!;
      const rank = other.at === timer.at ? rankBefore(other.rank, timer.rank) : 0;
      if (other.at < timer.at || (other.at === timer.at && (rank < 0 || (rank === 0 && other.seq < timer.seq))))
        lo = mid + 1;
      else hi = mid;
    }
    this.queue.splice(lo, 0, timer);
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

/** Parses "90s", "30m", "2h", "1d", "1h30m", "500ms" or a number of seconds into milliseconds. */
export function parseDuration(input: string | number): number | undefined {
  if (typeof input === 'number') return Number.isFinite(input) && input >= 0 ? input * 1000 : undefined;
  const text = input.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/gy;
  let total = 0;
  let matched = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    total += Number(m[1]) * units[m[2]!]!;
    matched = re.lastIndex;
  }
  return matched === text.length && matched > 0 ? total : undefined;
}

/** Milliseconds of a duration already checked by a schema (core/schemas.ts `duration`). */
export function durationMs(value: string | number): number {
  const ms = parseDuration(value);
  if (ms === undefined) throw new Error(`unreadable duration ${String(value)}`);
  return ms;
}

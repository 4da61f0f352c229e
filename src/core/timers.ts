/**
 * Kept timers (docs/persistence.md, "What is kept"): the work the sandbox has planned on its clocks (a webhook
 * retry, a held delivery's release, a fault's end, a scenario's step or a recipient's planned act), named by what it
 * is rather than held as a closure, so that it survives a restart: with `--data` each timer is a kept record
 * (core/kept.ts) and, on the next start, is set again on its tenant's clock with its due time, its rank and its place
 * among timers due at the same instant.
 *
 * A timer is `kind` (which handler runs it, `define`d by its subsystem) and `ref` (which one: a delivery's id);
 * setting a timer of the same kind and ref replaces it. Its record is dropped once the work it started has settled,
 * not when it starts: a process killed meanwhile runs it again after the restart (at least once; a webhook attempt
 * is sent again with the same `webhook-id`, docs/webhooks.md).
 */
import type { ClockTimer } from './clock.js';
import { TIMER_RANK } from './timer-order.js';
import { KEEP_NOTHING, type Keeper, type KeptState } from './kept.js';
import type { TenantClocks } from './tenant-clocks.js';

/** Runs one timer of a kind: `ref` names which, `args` are what it was set with. */
export type TimerHandler = (ref: string, args: unknown) => unknown;

export interface TimerSpec {
  kind: string;
  ref: string;
  /** Sandbox time it is due, epoch ms. */
  at: number;
  /** The tenant (platformId) whose clock it runs on; the sandbox clock when absent. */
  owner?: string | undefined;
  /** Its place among timers due at the same instant (TIMER_RANK). */
  rank?: readonly number[];
  /** JSON-ready arguments for the handler. */
  args?: unknown;
}

/** A timer as kept: its spec and `n`, the order timers were set in (same-instant timers of a rank run by it). */
export interface TimerRecord extends TimerSpec {
  rank: readonly number[];
  n: number;
}

interface Pending {
  record: TimerRecord;
  timer: ClockTimer | undefined;
}

export class Timers {
  private readonly handlers = new Map<string, TimerHandler>();
  private readonly pending = new Map<string, Pending>();
  private readonly restoring: TimerRecord[] = [];
  private readonly keeper: Keeper;
  private n = 0;
  private stopped = false;

  constructor(
    private readonly clocks: TenantClocks,
    kept: KeptState = KEEP_NOTHING,
  ) {
    this.keeper = kept.keep('timers', {
      record: (key) => this.pending.get(key)?.record,
      keys: () => this.pending.keys(),
      restore: (_key, record) => this.restoring.push(record as TimerRecord),
      restored: () => this.armRestored(),
      clear: () => this.clear(),
    });
  }

  /** The handler of a kind of timer (the subsystem that sets them defines it once, when it starts). */
  define(kind: string, handler: TimerHandler): void {
    this.handlers.set(kind, handler);
  }

  /** Sets a timer, replacing one of the same kind and ref. */
  set(spec: TimerSpec): void {
    this.cancel(spec.kind, spec.ref);
    const record: TimerRecord = {
      kind: spec.kind,
      ref: spec.ref,
      at: spec.at,
      ...(spec.owner !== undefined ? { owner: spec.owner } : {}),
      rank: spec.rank ?? TIMER_RANK.sandbox,
      ...(spec.args !== undefined ? { args: spec.args } : {}),
      n: ++this.n,
    };
    this.arm(record);
  }

  /** Cancels a timer (one running goes on, but is no longer kept); answers whether there was one. */
  cancel(kind: string, ref: string): boolean {
    const key = keyOf(kind, ref);
    const entry = this.pending.get(key);
    if (!entry) return false;
    entry.timer?.cancel();
    this.pending.delete(key);
    this.keeper.changed(key);
    return true;
  }

  /** The due time of a pending timer (undefined when none, or once it has started). */
  dueAt(kind: string, ref: string): number | undefined {
    const entry = this.pending.get(keyOf(kind, ref));
    return entry?.timer ? entry.record.at : undefined;
  }

  /** Cancels every timer, or those of one tenant (a reset). */
  clear(owner?: string): void {
    for (const [key, entry] of [...this.pending]) {
      if (owner !== undefined && entry.record.owner !== owner) continue;
      entry.timer?.cancel();
      this.pending.delete(key);
      this.keeper.changed(key);
    }
  }

  /** The sandbox is closing: timers stay kept as they are, whatever the closing cancels. */
  stop(): void {
    this.stopped = true;
  }

  private arm(record: TimerRecord): void {
    const key = keyOf(record.kind, record.ref);
    const entry: Pending = { record, timer: undefined };
    entry.timer = this.clocks
      .of(record.owner)
      .schedule(record.at, () => this.run(key, entry), key, record.owner, record.rank);
    this.pending.set(key, entry);
    this.keeper.changed(key);
  }

  private run(key: string, entry: Pending): unknown {
    entry.timer = undefined;
    const settle = () => {
      if (this.stopped || this.pending.get(key) !== entry) return;
      this.pending.delete(key);
      this.keeper.changed(key);
    };
    const handler = this.handlers.get(entry.record.kind);
    let result: unknown;
    try {
      result = handler?.(entry.record.ref, entry.record.args);
    } catch (error) {
      settle();
      throw error;
    }
    if (result instanceof Promise) return result.finally(settle);
    settle();
    return result;
  }

  /** Sets the restored timers again, in the order they were first set, then runs those already due. */
  private armRestored(): void {
    const records = this.restoring.splice(0).sort((a, b) => a.n - b.n);
    for (const record of records) {
      this.n = Math.max(this.n, record.n);
      this.arm(record);
    }
    for (const clock of this.clocks.all()) clock.runDue();
  }
}

function keyOf(kind: string, ref: string): string {
  return `${kind} ${ref}`;
}

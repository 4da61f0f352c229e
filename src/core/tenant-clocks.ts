/**
 * Tenants' own clocks (docs/library.md, "Parallel tests"): a tenant (platform account) may have a clock of its
 * own, so parallel tests sharing one sandbox each control their own time. A tenant without one follows the
 * sandbox clock. Everything of a tenant asks `of(platformId)` for its time and schedules its timers there, so
 * advancing one tenant's clock runs only that tenant's timers and waits only for that tenant's work (each clock
 * has its own WorkTracker).
 */
import { Clock, type ClockMode, type ClockRecord } from './clock.js';
import { KEEP_NOTHING, type Keeper, type KeptState } from './kept.js';

/** The kept record of the sandbox clock; a tenant's is under its platformId. */
const SANDBOX = '';

export class TenantClocks {
  private readonly own = new Map<string, Clock>();
  private readonly keeper: Keeper;

  constructor(
    readonly sandbox: Clock,
    kept: KeptState = KEEP_NOTHING,
  ) {
    // Kept (core/kept.ts) so that after a restart each clock reads what it read: its mode and time or offset.
    this.keeper = kept.keep('clocks', {
      record: (key) => (key === SANDBOX ? sandbox : this.own.get(key))?.record(),
      keys: () => [SANDBOX, ...this.own.keys()],
      restore: (key, record) => {
        if (key === SANDBOX) sandbox.restore(record as ClockRecord);
        else this.give(key).restore(record as ClockRecord);
      },
      clear: () => this.dropAll(),
    });
    sandbox.onChange = () => this.keeper.changed(SANDBOX);
    // A sandbox started frozen "now" must read that time again after a restart, changed or not.
    this.keeper.changed(SANDBOX);
  }

  /** The clock a tenant follows: its own, else the sandbox's (also for no tenant at all). */
  of(tenant: string | undefined): Clock {
    return (tenant !== undefined && this.own.get(tenant)) || this.sandbox;
  }

  /** Whether the tenant has a clock of its own. */
  has(tenant: string): boolean {
    return this.own.has(tenant);
  }

  get size(): number {
    return this.own.size;
  }

  /**
   * The tenant's own clock, made now if it has none: in `mode` at `start` (default: as the sandbox clock stands).
   * The tenant's timers pending on the sandbox clock (a webhook retry, a scenario step) move to it.
   */
  give(tenant: string, options: { mode?: ClockMode | undefined; start?: number | undefined } = {}): Clock {
    const existing = this.own.get(tenant);
    if (existing) return existing;
    const clock = new Clock({
      mode: options.mode ?? (this.sandbox.isFrozen ? 'frozen' : 'real'),
      start: options.start ?? this.sandbox.now(),
    });
    this.own.set(tenant, clock);
    clock.onChange = () => this.keeper.changed(tenant);
    this.keeper.changed(tenant);
    this.sandbox.moveTimers(tenant, clock);
    return clock;
  }

  /** The tenants with their own clocks. */
  entries(): [string, Clock][] {
    return [...this.own];
  }

  /** Drops every tenant's own clock and its timers: the tenants follow the sandbox clock again (a full reset). */
  dropAll(): void {
    for (const [tenant, clock] of this.own) {
      clock.close();
      this.keeper.changed(tenant);
    }
    this.own.clear();
  }

  /** Every clock, the sandbox's first. */
  all(): Clock[] {
    return [this.sandbox, ...this.own.values()];
  }

  /** Stops every clock (the sandbox's close). */
  close(): void {
    // The clocks stay listed, as they were: a data file written after this keeps them.
    for (const clock of this.own.values()) clock.close();
    this.sandbox.close();
  }
}

/**
 * The clock as a control operation (docs/library.md): read, advance, set, freeze, unfreeze; the sandbox's, or
 * scoped to a tenant, the tenant's own, which its first scoped change gives it (core/tenant-clocks.ts).
 */
import type { z } from 'zod';
import type { Clock, ClockState } from '../core/clock.js';
import { parseDuration } from '../core/duration.js';
import { TIME_RANGE, inTimeRange } from '../core/time-range.js';
import { ApiError, quote } from '../core/errors.js';
import type { TenantClocks } from '../core/tenant-clocks.js';
import { parseWith } from '../core/validation.js';
import { pause } from '../core/pause.js';
import type { Tenant } from './deps.js';
import { advanceBody, setBody } from './schemas.js';

const LAST_TIME = new Date(TIME_RANGE.max).toISOString();
/** Rounds of `settle()` at most: each runs what is due and waits for its work. */
const SETTLE_ROUNDS = 100;

export class ClockControl {
  constructor(private readonly clocks: TenantClocks) {}

  /** The clock's state; scoped, with `own`: whether the tenant has its own clock or follows the sandbox's. */
  state(tenant?: Tenant): ClockState {
    const state = this.clocks.of(tenant?.platformId).state();
    return tenant ? { ...state, own: this.clocks.has(tenant.platformId) } : state;
  }

  /** Moves time forward; answers once every timer that fell due, and the work it started, has settled. */
  async advance(input: z.input<ReturnType<typeof advanceBody>>, tenant?: Tenant): Promise<ClockState> {
    const { by } = parseWith(advanceBody(), input);
    const ms = parseDuration(by);
    if (ms === undefined || !Number.isFinite(ms)) {
      throw ApiError.badRequest(
        `Cannot read duration ${quote(by)}; use e.g. "90s", "30m", "2h", "1d", "1h30m" or a number of seconds`,
        [{ path: 'by', message: 'Not a duration' }],
      );
    }
    // Every response prints times, so the clock never goes where a date cannot be printed.
    if (!inTimeRange(this.clocks.of(tenant?.platformId).now() + ms)) {
      throw ApiError.badRequest(
        `Advancing by ${quote(by)} would move the clock past ${LAST_TIME}, the last time the sandbox can show`,
        [{ path: 'by', message: 'Too far' }],
      );
    }
    await this.changing(tenant).advance(ms);
    return this.state(tenant);
  }

  /** Jumps to a time; forward jumps run the timers on the way. */
  async set(input: z.input<ReturnType<typeof setBody>>, tenant?: Tenant): Promise<ClockState> {
    const { to } = parseWith(setBody(), input);
    const ms = typeof to === 'number' ? to : Date.parse(to);
    if (!Number.isFinite(ms))
      throw ApiError.badRequest(`Cannot read time ${quote(to)}; use ISO 8601 like 2026-01-01T09:00:00Z`, [
        { path: 'to', message: 'Not a time' },
      ]);
    if (!inTimeRange(ms)) {
      throw ApiError.badRequest(`Time ${quote(to)} is outside the years 0000 to 9999 the sandbox can show`, [
        { path: 'to', message: 'Out of range' },
      ]);
    }
    await this.changing(tenant).set(ms);
    return this.state(tenant);
  }

  freeze(tenant?: Tenant): ClockState {
    this.changing(tenant).freeze();
    return this.state(tenant);
  }

  unfreeze(tenant?: Tenant): ClockState {
    this.changing(tenant).unfreeze();
    return this.state(tenant);
  }

  /**
   * Waits until nothing is due now (docs/library.md, "settle"): runs the timers due at the current time (webhook
   * retries, recipients' acts, scenario steps), waits for the work in flight (webhook attempts, reactions), and
   * again until a round starts nothing new. The time does not move. Scoped: the tenant's clock only; unscoped: the
   * sandbox clock and every tenant's own.
   */
  async settle(tenant?: Tenant): Promise<ClockState> {
    const clocks = tenant
      ? [this.clocks.of(tenant.platformId)]
      : [this.clocks.sandbox, ...this.clocks.entries().map(([, clock]) => clock)];
    // Bounded, so a timer that is always due (none should be) cannot hold the call for ever.
    for (let round = 0; round < SETTLE_ROUNDS; round++) {
      for (const clock of clocks) await clock.advance(0);
      // Reactions queued as microtasks, and I/O callbacks of answers that just came in, get their turn.
      await pause();
      if (clocks.every((clock) => clock.idle)) break;
    }
    return this.state(tenant);
  }

  /** The clock a change moves: the sandbox's, or the tenant's own (given now, if it had none). */
  private changing(tenant: Tenant | undefined): Clock {
    return tenant ? this.clocks.give(tenant.platformId) : this.clocks.sandbox;
  }
}

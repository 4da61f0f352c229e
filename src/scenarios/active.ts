/**
 * One loaded scenario's running state: its pending clock timers, the recipients its rules have taken, the outages
 * it started, and its own bounded log. Rules and timeline steps act through this and through the control operations.
 */
import type { Clock, ClockTimer } from '../core/clock.js';
import { isoTime } from '../core/time-format.js';
import type { ScenarioLogEntry } from '../control/sandbox-control.js';
import type { Scenario } from './schema.js';

/** A rule that matches everyone in a long-running sandbox must not grow the log without bound: keep the newest. */
const LOG_LIMIT = 2000;

interface PendingTimer {
  timer: ClockTimer;
  /** Platform of the recipient a rule timer acts for; timeline timers have none. */
  platformId?: string;
}

export class ActiveScenario {
  readonly timers = new Set<PendingTimer>();
  /** Recipients a rule has already been applied to (a resend notifies again; act once). */
  readonly handled = new Set<string>();
  /** Outage ids as the scenario names them → the dispatcher's ids. */
  readonly outages = new Map<string, string>();
  /** Numbers the outages started without an id. */
  outageCount = 0;
  readonly log: ScenarioLogEntry[] = [];

  constructor(
    readonly scenario: Scenario,
    readonly source: string,
    readonly loadedAt: number,
    readonly notes: string[],
    private readonly clock: Clock,
  ) {}

  get name(): string {
    return this.scenario.name;
  }

  /** `scenario:<name>:<rule or step>`: what history entries, events and deliveries name as their cause. */
  cause(part?: string): string {
    return part === undefined ? `scenario:${this.name}` : `scenario:${this.name}:${part}`;
  }

  /** A fault as this scenario sets it: its own id, if it names one, prefixed with the scenario's name. */
  ownFault<T extends { id?: string | undefined }>(fault: T): T {
    return fault.id !== undefined ? { ...fault, id: `${this.name}:${fault.id}` } : fault;
  }

  schedule(at: number, fn: () => void, label: string, platformId?: string): void {
    const pending: PendingTimer = {
      timer: undefined as unknown as ClockTimer,
      ...(platformId !== undefined ? { platformId } : {}),
    };
    pending.timer = this.clock.schedule(
      at,
      () => {
        this.timers.delete(pending);
        fn();
      },
      label,
    );
    this.timers.add(pending);
  }

  /** Cancels pending timers: all of them, or those acting for one platform's recipients. */
  cancelTimers(platformId?: string): void {
    for (const t of [...this.timers]) {
      if (platformId !== undefined && t.platformId !== platformId) continue;
      t.timer.cancel();
      this.timers.delete(t);
    }
  }

  record(cause: string, what: string, outcome: ScenarioLogEntry['outcome'], detail?: string): void {
    this.log.push({ at: isoTime(this.clock.now()), cause, what, outcome, ...(detail !== undefined ? { detail } : {}) });
    if (this.log.length > LOG_LIMIT) this.log.splice(0, this.log.length - LOG_LIMIT);
  }
}

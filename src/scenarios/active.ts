/**
 * One loaded scenario's running state: its pending clock timers, the recipients its rules have taken, the outages
 * it started, and its own bounded log. Rules and timeline steps act through this and through the control operations.
 */
import type { Clock, ClockTimer } from '../core/clock.js';
import { isoTime } from '../core/time-format.js';
import type { ScenarioLogEntry } from '../control/sandbox-control.js';
import type { Tenant } from '../control/control.js';
import type { Scenario } from './schema.js';
import { Expectations } from './expectations.js';
import type { ReactionChain } from './reaction-chain.js';

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
  /** How many times each triggered step (by its place in the timeline) has been triggered: `times` caps it. */
  readonly fired = new Map<number, number>();
  readonly expectations: Expectations;

  constructor(
    readonly scenario: Scenario,
    readonly source: string,
    readonly loadedAt: number,
    readonly notes: string[],
    /** The clock a tenant follows (its own, or the sandbox's), asked each time: a tenant may get its own later. */
    private readonly clockOf: (platformId: string | undefined) => Clock,
    /** What the scenario plans while a reaction runs carries the chain's depth along (reaction-chain.ts). */
    private readonly chain: ReactionChain,
    /** The tenant it was loaded for: it plays for that platform only. */
    readonly tenant?: Tenant,
    /** The engine's count of loads when this one loaded: ranks its steps among other scenarios' (clock.ts TIMER_RANK). */
    readonly loadSeq = 0,
    /** A platform's API key, for the log's `tenant` when a line is on that tenant's own clock. */
    private readonly apiKeyOf: (platformId: string) => string | undefined = () => undefined,
  ) {
    this.expectations = new Expectations(scenario.expect ?? [], scenario.name, loadedAt);
  }

  /** The scenario's clock: its tenant's, else the sandbox's. */
  get clock(): Clock {
    return this.clockOf(this.tenant?.platformId);
  }

  /** Whether a record of this platform is the scenario's to act on. */
  covers(platformId: string): boolean {
    return this.tenant === undefined || this.tenant.platformId === platformId;
  }

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

  /** A timer on the clock of the platform it acts for (a rule's recipient's), else of the scenario's tenant. */
  schedule(at: number, fn: () => void, label: string, rank: readonly number[], platformId?: string): void {
    const owner = platformId ?? this.tenant?.platformId;
    const pending: PendingTimer = {
      timer: undefined as unknown as ClockTimer,
      ...(owner !== undefined ? { platformId: owner } : {}),
    };
    pending.timer = this.clockOf(owner).schedule(
      at,
      this.chain.carry(() => {
        this.timers.delete(pending);
        fn();
      }),
      label,
      owner,
      rank,
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

  /**
   * A line of the log, dated on the clock of the platform it acted for (`platformId`: a rule's recipient's), else of
   * the scenario's tenant, and saying which clock that is: a scenario for the whole sandbox acts for tenants that may
   * have clocks of their own, and its lines would otherwise mix their times with the sandbox's.
   */
  record(
    cause: string,
    what: string,
    outcome: ScenarioLogEntry['outcome'],
    detail?: string,
    platformId: string | undefined = this.tenant?.platformId,
  ): void {
    const clock = this.clockOf(platformId);
    // A tenant without a clock of its own follows the sandbox clock: its lines are on the sandbox clock.
    const tenant =
      platformId !== undefined && clock !== this.clockOf(undefined) ? this.apiKeyOf(platformId) : undefined;
    this.log.push({
      at: isoTime(clock.now()),
      clock: tenant !== undefined ? 'tenant' : 'sandbox',
      ...(tenant !== undefined ? { tenant } : {}),
      cause,
      what,
      outcome,
      ...(detail !== undefined ? { detail } : {}),
    });
    if (this.log.length > LOG_LIMIT) this.log.splice(0, this.log.length - LOG_LIMIT);
  }
}

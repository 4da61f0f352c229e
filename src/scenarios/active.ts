/**
 * One loaded scenario's running state: its pending clock timers, the recipients its rules have taken, the outages
 * it started, and its own bounded log. Rules and timeline steps act through this and through the control operations.
 * All of it is kept across a restart (docs/persistence.md, "What is kept"): the engine keeps each active scenario as
 * one record (`kept()`), and its timers are kept timers (core/timers.ts) that name what they will do (`ScenarioWork`).
 */
import type { Clock } from '../core/clock.js';
import { isoTime } from '../core/time-format.js';
import type { Timers } from '../core/timers.js';
import type { ScenarioLogEntry } from '../control/sandbox-control.js';
import type { Tenant } from '../control/control.js';
import type { RecipientRole } from '../core/vocabulary.js';
import type { Scenario } from './schema.js';
import { Expectations, type WatchState } from './expectations.js';
import type { Chain, ReactionChain } from './reaction-chain.js';

/** A rule that matches everyone in a long-running sandbox must not grow the log without bound: keep the newest. */
const LOG_LIMIT = 2000;

/** The kind of the kept timers (core/timers.ts) scenarios set. */
export const SCENARIO_TIMER = 'scenario';

/** What a scenario's timer does when it comes due, as plain JSON (a kept timer's arguments). */
export type ScenarioWork =
  /** A timeline step at its time. */
  | { do: 'step'; index: number }
  /** A triggered step's delayed reaction to `reason`. */
  | { do: 'react'; index: number; reason: string }
  /** A rule's planned act of a recipient. */
  | { do: 'act'; cause: string; recipientKey: string; verb: RecipientRole };

/** A scenario timer's arguments: its scenario, its work, and the chain of reactions it was planned in, if any. */
export interface ScenarioTimerArgs {
  scenario: string;
  work: ScenarioWork;
  chain?: Chain;
}

/** An active scenario as it is kept: plain JSON. */
export interface KeptScenario {
  scenario: Scenario;
  source: string;
  loadedAt: number;
  notes: string[];
  tenant?: Tenant;
  loadSeq: number;
  /** Its pending timers: ref → the platform they act for. */
  timers: [string, string | null][];
  handled: string[];
  outages: [string, string][];
  outageCount: number;
  log: ScenarioLogEntry[];
  fired: [number, number][];
  expectations: WatchState[];
}

export class ActiveScenario {
  /** Pending timers (kept timers' refs) → the platform each acts for (a rule timer: its recipient's). */
  readonly timers = new Map<string, string | undefined>();
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
    /** What the scenario plans while a reaction runs carries the reaction's chain along (reaction-chain.ts). */
    private readonly chain: ReactionChain,
    /** The tenant it was loaded for: it plays for that platform only. */
    readonly tenant: Tenant | undefined,
    /** The engine's count of loads when this one loaded: ranks its steps among other scenarios' (core/timer-order.ts TIMER_RANK). */
    readonly loadSeq: number,
    /** Where its timers are kept, and what hears that its state changed (the engine's keeper). */
    private readonly doors: {
      timers: Timers;
      changed: (active: ActiveScenario) => void;
      nextTimer: () => number;
      /** A platform's API key, for the log's `tenant` when a line is on that tenant's own clock. */
      apiKeyOf: (platformId: string) => string | undefined;
    },
  ) {
    this.expectations = new Expectations(scenario.expect ?? [], scenario.name, loadedAt);
  }

  /** How the engine keys it: its tenant, then its name. */
  get key(): string {
    return `${this.tenant?.platformId ?? ''} ${this.name}`;
  }

  /** Its state changed: kept with the next flush. */
  changed(): void {
    this.doors.changed(this);
  }

  /** It as kept (a data file, a snapshot). */
  kept(): KeptScenario {
    return {
      scenario: this.scenario,
      source: this.source,
      loadedAt: this.loadedAt,
      notes: this.notes,
      ...(this.tenant ? { tenant: this.tenant } : {}),
      loadSeq: this.loadSeq,
      timers: [...this.timers].map(([ref, platformId]) => [ref, platformId ?? null]),
      handled: [...this.handled],
      outages: [...this.outages],
      outageCount: this.outageCount,
      log: this.log,
      fired: [...this.fired],
      expectations: this.expectations.state(),
    };
  }

  /** Back to a kept state (its timers come back as kept timers, on their own). */
  restore(kept: KeptScenario): void {
    for (const [ref, platformId] of kept.timers) this.timers.set(ref, platformId ?? undefined);
    for (const key of kept.handled) this.handled.add(key);
    for (const [id, dispatcherId] of kept.outages) this.outages.set(id, dispatcherId);
    this.outageCount = kept.outageCount;
    this.log.push(...kept.log);
    for (const [index, n] of kept.fired) this.fired.set(index, n);
    this.expectations.restore(kept.expectations);
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

  /**
   * A timer on the clock of the platform it acts for (a rule's recipient's), else of the scenario's tenant: a kept
   * timer naming its work, which runs within the chain of reactions of now (reaction-chain.ts).
   */
  schedule(at: number, work: ScenarioWork, rank: readonly number[], platformId?: string): void {
    const owner = platformId ?? this.tenant?.platformId;
    const ref = `${this.key}#${this.doors.nextTimer()}`;
    const chain = this.chain.current;
    const args: ScenarioTimerArgs = { scenario: this.key, work, ...(chain ? { chain } : {}) };
    this.doors.timers.set({ kind: SCENARIO_TIMER, ref, at, owner, rank, args });
    this.timers.set(ref, owner);
    this.changed();
  }

  /** One of its timers came due: it is no longer pending. */
  timerDone(ref: string): boolean {
    if (!this.timers.delete(ref)) return false;
    this.changed();
    return true;
  }

  /** Cancels pending timers: all of them, or those acting for one platform's recipients. */
  cancelTimers(platformId?: string): void {
    for (const [ref, owner] of [...this.timers]) {
      if (platformId !== undefined && owner !== platformId) continue;
      this.doors.timers.cancel(SCENARIO_TIMER, ref);
      this.timers.delete(ref);
    }
    this.changed();
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
      platformId !== undefined && clock !== this.clockOf(undefined) ? this.doors.apiKeyOf(platformId) : undefined;
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
    this.changed();
  }
}

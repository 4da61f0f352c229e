/**
 * The scenario engine: activates scenarios and plays them out on the sandbox clock.
 *
 * - Where scenarios come from: catalog.ts (bundled names, YAML text, files); the format: schema.ts, load.ts.
 * - Recipient rules (rules.ts) listen for `recipient.notified` and plan acts on the clock; the first matching
 *   rule of the active scenarios (in load order) wins.
 * - Timeline steps (timeline.ts) are clock timers, due relative to the load time or at absolute times.
 * Everything a scenario does goes through the control operations or the domain with
 * `cause = scenario:<name>:<rule or step id>`, so contract history, events and the delivery log say which rule or
 * step did it. Each scenario keeps its own log.
 */
import { ApiError, quote } from '../core/errors.js';
import { isoTime } from '../core/time-format.js';
import type { BundledScenario, ScenarioSummary } from '../control/sandbox-control.js';
import type { Control, Tenant } from '../control/control.js';
import { systemContext } from '../domain/context.js';
import type { Services } from '../store/services.js';
import { seedClients } from '../fixtures/seed.js';
import type { PlatformRecord } from '../store/records.js';
import { ActiveScenario, type KeptScenario, SCENARIO_TIMER, type ScenarioTimerArgs } from './active.js';
import type { Keeper } from '../core/kept.js';
import { keepScenarios, keptTenantNames } from './keeping.js';
import { applyClockAtRunTime, checkGenerated, checkMoments, loadTime } from './load-checks.js';
import { bundledScenarios, readBundled, readNameOrYaml, readScenarioFile } from './catalog.js';
import { parseScenario } from './load.js';
import { act, applyRules } from './rules.js';
import type { Scenario, TimelineStep } from './schema.js';
import { runStep, stepId } from './timeline.js';
import { momentOf } from './matching.js';
import { ReactionChain } from './reaction-chain.js';
import { Reactions } from './reactions.js';
import type { TenantNames } from './tenant-names.js';
import { boundTenant } from './tenant-key.js';
import { checkData, dataPlatform } from './data-platform.js';
import type { Happening } from './happenings.js';
import { TIMER_RANK } from '../core/timer-order.js';

export { ScenarioError } from './load.js';

/** Whether a scenario was loaded for this tenant (or, with none given, for the whole sandbox). */
function sameTenant(active: ActiveScenario, tenant: Tenant | undefined): boolean {
  return active.tenant?.platformId === tenant?.platformId;
}

export interface ScenarioEngineDeps {
  services: Services;
  control: Control;
  /** Folder of bundled scenarios (`scenarios/` in the package). */
  bundledDir: string;
  /** The sandbox's --seed, for fault probabilities when a scenario has no `seed:`. */
  seed?: number | undefined;
}

export class ScenarioEngine {
  private readonly active: ActiveScenario[] = [];
  private readonly chain = new ReactionChain();
  private readonly names: TenantNames;
  private readonly reactions: Reactions;
  private loads = 0;
  /** Numbers the scenarios' timers (their kept timers' refs). */
  private timerSeq = 0;
  private readonly keeper: Keeper;

  constructor(private readonly deps: ScenarioEngineDeps) {
    const { bus, store, timers } = deps.services;
    this.keeper = keepScenarios(store, {
      active: () => this.active,
      restore: (kept) => this.restoreAll(kept),
      clear: () => this.unloadAll(),
    });
    this.names = keptTenantNames(store);
    timers.define(SCENARIO_TIMER, (ref, args) => this.timerDue(ref, args as ScenarioTimerArgs));
    this.reactions = new Reactions(
      deps.services,
      this.chain,
      (active, step, index, reason) => this.runStep(active, step, index, reason),
      (active) => this.active.includes(active),
    );
    // First, before the webhook dispatcher and the outbox: reactions to an event are planned before its deliveries.
    bus.onAnyFirst((event) => this.hear(event));
    bus.on('recipient.notified', (event) => this.onNotified(event.recipientKey));
    bus.on('sandbox.reset', (event) => this.onReset(event.platformId));
  }

  /** Whether an active scenario listens to /api requests (a `request` trigger or expectation): http/request-events.ts. */
  wantsRequests(): boolean {
    return this.active.some((a) => a.expectations.size > 0 || a.scenario.timeline?.some((s) => s.when !== undefined));
  }

  /** The bundled scenarios and the active ones (a tenant's only, when `tenant` is given). */
  async list(tenant?: Tenant): Promise<{ bundled: BundledScenario[]; active: ScenarioSummary[] }> {
    return { bundled: await bundledScenarios(this.deps.bundledDir), active: this.activeSummaries(tenant) };
  }

  activeSummaries(tenant?: Tenant): ScenarioSummary[] {
    return this.active.filter((a) => tenant === undefined || sameTenant(a, tenant)).map((a) => this.summary(a));
  }

  get(name: string, tenant?: Tenant): ScenarioSummary {
    return this.summary(this.find(name, tenant));
  }

  /** A bundled name or YAML text: read and activated (the control API and the library). */
  async load(nameOrYaml: string, tenant?: Tenant): Promise<ScenarioSummary> {
    const { scenario, source } = await readNameOrYaml(this.deps.bundledDir, nameOrYaml);
    return this.activate(scenario, source, { tenant });
  }

  /** Scenario YAML text. */
  async loadText(yaml: string, tenant?: Tenant): Promise<ScenarioSummary> {
    return this.activate(await parseScenario(yaml, '<request>'), 'request', { tenant });
  }

  /** A bundled scenario by name. */
  async loadBundled(name: string, tenant?: Tenant): Promise<ScenarioSummary> {
    const { scenario, source } = await readBundled(this.deps.bundledDir, name);
    return this.activate(scenario, source, { tenant });
  }

  /** A scenario file on disk (library use). */
  async loadFile(path: string, tenant?: Tenant): Promise<ScenarioSummary> {
    const { scenario, source } = await readScenarioFile(path);
    return this.activate(scenario, source, { tenant });
  }

  /**
   * Activates a scenario. `atStart`: loaded by --scenario, when the clock settings were already applied and a
   * data file may hold its data from an earlier run (`skipData`). A scenario with the name of an active one
   * replaces it. Answers once the work it started (first webhook attempts) has settled, like a clock advance.
   * `tenant`: the scenario plays for that tenant only (its recipients, records, requests and deliveries), on its
   * clock; names are the tenant's own (two tenants may each load `happy-path`).
   */
  async activate(
    given: Scenario,
    source: string,
    options: { atStart?: boolean; skipData?: boolean; tenant?: Tenant | undefined } = {},
  ): Promise<ScenarioSummary> {
    const tenant = boundTenant(given, options.tenant, (apiKey) => this.deps.control.state.tenant(apiKey));
    // A tenant's scenario loaded at start sets the tenant's clock as at run time: the sandbox's was set for others.
    const atStart = options.atStart === true && tenant === undefined;
    if (!options.atStart) checkGenerated(given);
    const { clocks, store, ids } = this.deps.services;
    // In a tenant, the scenario's keys are names of the tenant's own (tenant-names.ts).
    const { scenario, notes } = tenant
      ? this.names.resolve(given, tenant.platformId, store, ids)
      : { scenario: given, notes: [] as string[] };
    if (this.active.some((a) => a.name === scenario.name && sameTenant(a, tenant))) {
      this.unload(scenario.name, tenant);
      notes.push(`replaced the active scenario "${scenario.name}"`);
    }
    if (scenario.data) checkData(scenario, this.dataPlatform(scenario, tenant), this.deps.services.store);
    checkMoments(scenario, loadTime(scenario, clocks.of(tenant?.platformId).now(), atStart));
    // A tenant's scenario that sets the clock sets the tenant's own clock, never the sandbox's.
    if (tenant && scenario.clock) clocks.give(tenant.platformId);
    const clock = clocks.of(tenant?.platformId);
    if (!atStart && scenario.clock) await applyClockAtRunTime(scenario, notes, clock);
    const active = this.make(scenario, source, clock.now(), notes, tenant, ++this.loads);
    this.active.push(active);
    active.changed();
    try {
      for (const fault of scenario.faults ?? []) this.addFault(active, fault);
      if (scenario.rateLimit) this.deps.control.rateLimits.apply(scenario.rateLimit, active.cause(), tenant);
      if (scenario.receiverFaults?.length) {
        const specs = scenario.receiverFaults.map((f) => active.ownFault(f));
        this.deps.control.webhooks.faults.add(
          specs,
          active.cause(),
          scenario.seed ?? this.deps.seed,
          tenant?.platformId,
        );
      }
      if (scenario.data && !options.skipData) await this.seedData(active);
      if (scenario.data && options.skipData) notes.push('data: skipped, the data file already holds the state');
      this.scheduleTimeline(active);
    } catch (error) {
      this.unload(scenario.name, tenant);
      throw error;
    }
    await clocks.of(tenant?.platformId).work.settled();
    return this.summary(active);
  }

  /** Cancels the scenario's pending timers, faults and outages. Its past effects stay. */
  unload(name: string, tenant?: Tenant): ScenarioSummary {
    const active = this.find(name, tenant);
    active.cancelTimers();
    const { faults, webhooks } = this.deps.control;
    const platformId = active.tenant?.platformId;
    faults.clear(active.cause(), platformId);
    webhooks.faults.clear(active.cause(), platformId);
    this.deps.control.rateLimits.clear(active.cause(), active.tenant);
    for (const id of active.outages.values()) webhooks.endOutage(id);
    active.outages.clear();
    this.active.splice(this.active.indexOf(active), 1);
    active.changed();
    return this.summary(active);
  }

  private make(
    scenario: Scenario,
    source: string,
    loadedAt: number,
    notes: string[],
    tenant: Tenant | undefined,
    loadSeq: number,
  ): ActiveScenario {
    const { clocks, timers } = this.deps.services;
    return new ActiveScenario(scenario, source, loadedAt, notes, (p) => clocks.of(p), this.chain, tenant, loadSeq, {
      timers,
      changed: (a) => this.keeper.changed(a.key),
      nextTimer: () => ++this.timerSeq,
      apiKeyOf: (platformId) => this.deps.services.store.platforms.get(platformId)?.apiKey,
    });
  }

  /** The kept scenarios back, in load order, each with its timers (kept timers, back on their own) and rate limit. */
  private restoreAll(scenarios: KeptScenario[]): void {
    for (const kept of scenarios) {
      const active = this.make(kept.scenario, kept.source, kept.loadedAt, kept.notes, kept.tenant, kept.loadSeq);
      active.restore(kept);
      this.loads = Math.max(this.loads, kept.loadSeq);
      for (const [ref] of kept.timers) this.timerSeq = Math.max(this.timerSeq, Number(ref.split('#').pop()) || 0);
      this.active.push(active);
      // Rate limits are no kept state of their own: the scenario sets its limit again (the window starts afresh).
      if (kept.scenario.rateLimit)
        this.deps.control.rateLimits.apply(kept.scenario.rateLimit, active.cause(), kept.tenant);
    }
  }

  /** Whether a scenario of this name is active with exactly this content, for its `tenant:` or for the sandbox. */
  activeAs(scenario: Scenario): boolean {
    const active = this.active.find((a) => a.name === scenario.name && a.tenant?.apiKey === scenario.tenant);
    return active !== undefined && JSON.stringify(active.scenario) === JSON.stringify(scenario);
  }

  /** A scenario timer came due: its step, reaction or act runs, within the chain of reactions it was planned in. */
  private timerDue(ref: string, { scenario, work, chain }: ScenarioTimerArgs): void {
    const active = this.active.find((a) => a.key === scenario);
    if (!active?.timerDone(ref)) return;
    this.chain.carry(() => {
      if (work.do === 'act') return act(active, this.deps, work.cause, work.recipientKey, work.verb);
      const step = active.scenario.timeline?.[work.index];
      if (step) this.runStep(active, step, work.index, work.do === 'react' ? work.reason : undefined);
    }, chain)();
  }

  /** Unloads every active scenario (a tenant's only, when `tenant` is given); answers how many. */
  unloadAll(tenant?: Tenant): number {
    const gone = this.active.filter((a) => tenant === undefined || sameTenant(a, tenant));
    for (const a of gone) this.unload(a.name, a.tenant);
    return gone.length;
  }

  /** An active scenario by name: a tenant's own, or (unscoped) the sandbox's, else any tenant's of that name. */
  private find(name: string, tenant?: Tenant): ActiveScenario {
    const named = this.active.filter((a) => a.name === name);
    const active =
      tenant !== undefined ? named.find((a) => sameTenant(a, tenant)) : (named.find((a) => !a.tenant) ?? named[0]);
    if (!active) {
      const names = this.active.filter((a) => tenant === undefined || sameTenant(a, tenant)).map((a) => a.name);
      throw ApiError.notFound(`No active scenario named ${quote(name)}; active: ${names.join(', ') || 'none'}`);
    }
    return active;
  }

  private summary(a: ActiveScenario): ScenarioSummary {
    const platformId = a.tenant?.platformId;
    return {
      name: a.name,
      ...(a.tenant ? { apiKey: a.tenant.apiKey } : {}),
      ...(a.scenario.description ? { description: a.scenario.description.trim() } : {}),
      source: a.source,
      loadedAt: isoTime(a.loadedAt),
      rules: a.scenario.recipients?.length ?? 0,
      steps: a.scenario.timeline?.length ?? 0,
      pendingTimers: a.timers.size,
      faults: this.deps.control.faults.list(a.cause(), platformId).map((f) => f.id),
      receiverFaults: this.deps.control.webhooks.faults.list(a.cause(), platformId).map((f) => f.id),
      notes: [...a.notes],
      log: [...a.log],
      expectations: a.expectations.report(a.clock.now()),
    };
  }

  private addFault(active: ActiveScenario, fault: NonNullable<Scenario['faults']>[number]): string {
    return this.deps.control.faults.add(
      active.ownFault(fault),
      active.cause(),
      active.scenario.seed ?? this.deps.seed,
      active.tenant?.platformId,
    )[0]!;
  }

  // ---- data ---------------------------------------------------------------------------------------------

  private dataPlatform(scenario: Scenario, tenant: Tenant | undefined): PlatformRecord {
    return dataPlatform(scenario, tenant, this.deps.services.store, () => this.deps.control.state.defaultPlatform());
  }

  private async seedData(active: ActiveScenario): Promise<void> {
    const { scenario } = active;
    const cause = active.cause('data');
    const { store } = this.deps.services;
    const before = new Set(Object.keys(store.data.contracts));
    const platform = this.dataPlatform(scenario, active.tenant);
    const ctx = systemContext(this.deps.services, cause, platform.platformId);
    const clients = await seedClients(ctx, platform, scenario.data?.clients ?? [], scenario.seed ?? this.deps.seed);
    const contracts = Object.keys(store.data.contracts).filter((k) => !before.has(k));
    active.record(
      cause,
      `data: client(s) ${clients.map((c) => c.clientKey).join(', ')}${contracts.length ? `; contract(s) ${contracts.join(', ')}` : ''}`,
      'done',
    );
  }

  // ---- rules and timeline -------------------------------------------------------------------------------

  private onNotified(recipientKey: string): void {
    const { store } = this.deps.services;
    const recipient = store.recipients.get(recipientKey);
    const contract = recipient ? store.contracts.get(recipient.contractKey) : undefined;
    if (!recipient || !contract) return;
    const now = this.deps.services.clocks.of(recipient.platformId).now();
    for (const active of this.active) {
      // A tenant's scenario sees only its tenant's recipients.
      if (!active.covers(recipient.platformId)) continue;
      if (applyRules(active, recipient, contract, now)) return;
    }
  }

  /**
   * Every scenario hears every event of its tenant (and its own steps running: `only`, whatever its tenant), in
   * load order: expectations, then reactions. A request without credentials belongs to no tenant: only scenarios
   * loaded for the sandbox hear it.
   */
  private hear(h: Happening, only?: ActiveScenario): void {
    if (this.active.length === 0) return;
    const platformId = 'platformId' in h ? h.platformId : undefined;
    // Every reaction to it, in every scenario, joins one chain: the chain of now, or one it starts (reaction-chain.ts).
    this.chain.carry(() => {
      for (const active of only ? [only] : [...this.active]) {
        const theirs = platformId !== undefined ? active.covers(platformId) : active.tenant === undefined;
        if (!only && !theirs) continue;
        const now = active.clock.now();
        if (active.expectations.observe(h, now, this.deps.services.store)) active.changed();
        this.reactions.hear(active, h, now);
      }
    }, this.chain.current ?? { reactions: 0 })();
  }

  /** Runs a step (at its time, or reacting to `reaction`); once done, it is something `{step: <id>}` waits for. */
  private runStep(active: ActiveScenario, step: TimelineStep, index: number, reaction?: string): void {
    const seed = active.scenario.seed ?? this.deps.seed;
    if (runStep(active, this.deps, step, index, seed, active.clock.now(), reaction))
      this.hear({ type: 'scenario.step', scenario: active.name, step: stepId(step, index) }, active);
  }

  private scheduleTimeline(active: ActiveScenario): void {
    const { clock } = active;
    // Steps due at load time run now, in file order; a frozen clock would otherwise hold them until the next advance.
    (active.scenario.timeline ?? []).forEach((step, i) => {
      if (step.at === undefined) return;
      const at = momentOf(step.at, active.loadedAt);
      if (at <= clock.now()) this.runStep(active, step, i);
      else active.schedule(at, { do: 'step', index: i }, [...TIMER_RANK.scenarioStep, active.loadSeq, i]);
    });
  }

  /**
   * A reset puts the store back to its seed, so pending scenario timers would act on records that are gone:
   * they are dropped (for one platform: only rule timers acting for its recipients). Scenarios stay active, so
   * their rules and faults keep applying to what happens next; load a scenario again to replay its timeline.
   */
  private onReset(platformId: string | undefined): void {
    this.names.forget(platformId);
    for (const active of this.active) {
      if (platformId !== undefined && !active.covers(platformId)) continue;
      active.cancelTimers(platformId);
      if (platformId === undefined || active.tenant) {
        active.handled.clear();
        active.outages.clear();
        active.changed();
      }
      active.record(
        active.cause(),
        platformId === undefined
          ? 'sandbox reset: pending timers dropped'
          : `platform reset: its pending timers dropped`,
        'done',
        undefined,
        platformId ?? active.tenant?.platformId,
      );
    }
  }
}

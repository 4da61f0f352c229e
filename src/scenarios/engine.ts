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
import type { Control } from '../control/control.js';
import type { Services } from '../domain/context.js';
import { seedClients } from '../fixtures/seed.js';
import type { PlatformRecord } from '../store/records.js';
import { ActiveScenario } from './active.js';
import { bundledScenarios, readBundled, readNameOrYaml, readScenarioFile } from './catalog.js';
import { parseScenario } from './load.js';
import { applyRules } from './rules.js';
import type { Scenario } from './schema.js';
import { momentOf, runStep } from './timeline.js';

export { ScenarioError } from './load.js';

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

  constructor(private readonly deps: ScenarioEngineDeps) {
    const { bus } = deps.services;
    bus.on('recipient.notified', (event) => this.onNotified(event.recipientKey));
    bus.on('sandbox.reset', (event) => this.onReset(event.platformId));
  }

  async list(): Promise<{ bundled: BundledScenario[]; active: ScenarioSummary[] }> {
    return { bundled: await bundledScenarios(this.deps.bundledDir), active: this.activeSummaries() };
  }

  activeSummaries(): ScenarioSummary[] {
    return this.active.map((a) => this.summary(a));
  }

  get(name: string): ScenarioSummary {
    return this.summary(this.find(name));
  }

  /** A bundled name or YAML text: read and activated (the control API and the library). */
  async load(nameOrYaml: string): Promise<ScenarioSummary> {
    const { scenario, source } = await readNameOrYaml(this.deps.bundledDir, nameOrYaml);
    return this.activate(scenario, source);
  }

  /** Scenario YAML text. */
  async loadText(yaml: string): Promise<ScenarioSummary> {
    return this.activate(await parseScenario(yaml, '<request>'), 'request');
  }

  /** A bundled scenario by name. */
  async loadBundled(name: string): Promise<ScenarioSummary> {
    const { scenario, source } = await readBundled(this.deps.bundledDir, name);
    return this.activate(scenario, source);
  }

  /** A scenario file on disk (library use). */
  async loadFile(path: string): Promise<ScenarioSummary> {
    const { scenario, source } = await readScenarioFile(path);
    return this.activate(scenario, source);
  }

  /**
   * Activates a scenario. `atStart`: loaded by --scenario, when the clock settings were already applied and a
   * data file may hold its data from an earlier run (`skipData`). A scenario with the name of an active one
   * replaces it. Answers once the work it started (first webhook attempts) has settled, like a clock advance.
   */
  async activate(
    scenario: Scenario,
    source: string,
    options: { atStart?: boolean; skipData?: boolean } = {},
  ): Promise<ScenarioSummary> {
    const { clock } = this.deps.services;
    const notes: string[] = [];
    if (this.active.some((a) => a.name === scenario.name)) {
      this.unload(scenario.name);
      notes.push(`replaced the active scenario "${scenario.name}"`);
    }
    if (scenario.data) this.checkData(scenario);
    if (!options.atStart && scenario.clock) await this.applyClockAtRunTime(scenario, notes);
    const active = new ActiveScenario(scenario, source, clock.now(), notes, clock);
    this.active.push(active);
    try {
      for (const fault of scenario.faults ?? []) this.addFault(active, fault);
      if (scenario.receiverFaults?.length) {
        const specs = scenario.receiverFaults.map((f) => active.ownFault(f));
        this.deps.control.webhooks.faults.add(specs, active.cause(), scenario.seed ?? this.deps.seed);
      }
      if (scenario.data && !options.skipData) await this.seedData(active);
      if (scenario.data && options.skipData) notes.push('data: skipped, the data file already holds the state');
      this.scheduleTimeline(active);
    } catch (error) {
      this.unload(scenario.name);
      throw error;
    }
    await clock.work.settled();
    return this.summary(active);
  }

  /** Cancels the scenario's pending timers, faults and outages. Its past effects stay. */
  unload(name: string): ScenarioSummary {
    const active = this.find(name);
    active.cancelTimers();
    const { faults, webhooks } = this.deps.control;
    faults.clear(active.cause());
    webhooks.faults.clear(active.cause());
    for (const id of active.outages.values()) webhooks.endOutage(id);
    active.outages.clear();
    this.active.splice(this.active.indexOf(active), 1);
    return this.summary(active);
  }

  unloadAll(): number {
    const names = this.active.map((a) => a.name);
    for (const name of names) this.unload(name);
    return names.length;
  }

  private find(name: string): ActiveScenario {
    const active = this.active.find((a) => a.name === name);
    if (!active) {
      const names = this.active.map((a) => a.name);
      throw ApiError.notFound(`No active scenario named ${quote(name)}; active: ${names.join(', ') || 'none'}`);
    }
    return active;
  }

  private summary(a: ActiveScenario): ScenarioSummary {
    return {
      name: a.name,
      ...(a.scenario.description ? { description: a.scenario.description.trim() } : {}),
      source: a.source,
      loadedAt: isoTime(a.loadedAt),
      rules: a.scenario.recipients?.length ?? 0,
      steps: a.scenario.timeline?.length ?? 0,
      pendingTimers: a.timers.size,
      faults: this.deps.control.faults.list(a.cause()).map((f) => f.id),
      receiverFaults: this.deps.control.webhooks.faults.list(a.cause()).map((f) => f.id),
      notes: [...a.notes],
      log: [...a.log],
    };
  }

  /**
   * At run time the clock is shared with whatever else is going on, so a scenario may move it only forward:
   * `frozen` freezes or unfreezes; `start` moves the clock there if it lies ahead (running timers on the way)
   * and is ignored, with a note, if it lies behind.
   */
  private async applyClockAtRunTime(scenario: Scenario, notes: string[]): Promise<void> {
    const { clock } = this.deps.services;
    const c = scenario.clock!;
    if (c.frozen === true) clock.freeze();
    if (c.frozen === false) clock.unfreeze();
    if (c.start !== undefined) {
      const start = Date.parse(c.start);
      if (start > clock.now()) await clock.set(start);
      else if (start < clock.now())
        notes.push(
          `clock.start ${c.start} is behind the sandbox clock (${isoTime(clock.now())}); the clock was not moved back`,
        );
    }
  }

  private addFault(active: ActiveScenario, fault: NonNullable<Scenario['faults']>[number]): string {
    return this.deps.control.faults.add(
      active.ownFault(fault),
      active.cause(),
      active.scenario.seed ?? this.deps.seed,
    )[0]!;
  }

  // ---- data ---------------------------------------------------------------------------------------------

  private platformFor(scenario: Scenario): PlatformRecord {
    const apiKey = scenario.data?.platform;
    const platform =
      apiKey !== undefined
        ? this.deps.services.store.platforms.where('apiKey', apiKey)[0]
        : this.deps.control.state.defaultPlatform();
    if (!platform) {
      throw ApiError.badRequest(
        apiKey !== undefined
          ? `data.platform: no platform with apiKey "${apiKey}"`
          : 'data: the sandbox has no platform to add to; name one with data.platform',
      );
    }
    return platform;
  }

  /** Fixed keys must be free before anything is written, so a clash leaves the sandbox as it was. */
  private checkData(scenario: Scenario): void {
    const { store } = this.deps.services;
    const platform = this.platformFor(scenario);
    const clash = (what: string, key: string | undefined, taken: boolean) => {
      if (key !== undefined && taken)
        throw ApiError.conflict(
          `Scenario ${scenario.name}: ${what} "${key}" already exists; pick another key or leave it out`,
        );
    };
    for (const c of scenario.data?.clients ?? []) {
      const existing = c.clientKey !== undefined ? store.clients.get(c.clientKey) : undefined;
      if (existing && existing.platformId !== platform.platformId) clash('clientKey', c.clientKey, true);
      for (const u of c.users ?? []) clash('userKey', u.userKey, u.userKey !== undefined && store.users.has(u.userKey));
      for (const t of c.templates ?? [])
        clash('templateKey', t.templateKey, t.templateKey !== undefined && store.templates.has(t.templateKey));
      for (const k of c.contracts ?? [])
        clash('contractKey', k.contractKey, k.contractKey !== undefined && store.contracts.has(k.contractKey));
    }
  }

  private async seedData(active: ActiveScenario): Promise<void> {
    const { scenario } = active;
    const cause = active.cause('data');
    const { store } = this.deps.services;
    const before = new Set(Object.keys(store.data.contracts));
    const ctx = { ...this.deps.services, cause };
    const clients = await seedClients(
      ctx,
      this.platformFor(scenario),
      scenario.data?.clients ?? [],
      scenario.seed ?? this.deps.seed,
    );
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
    const now = this.deps.services.clock.now();
    for (const active of this.active) if (applyRules(active, this.deps, recipient, contract, now)) return;
  }

  private scheduleTimeline(active: ActiveScenario): void {
    const { clock } = this.deps.services;
    const seed = active.scenario.seed ?? this.deps.seed;
    const run = (step: NonNullable<Scenario['timeline']>[number], i: number) =>
      runStep(active, this.deps, step, i, seed, clock.now());
    // Steps due at load time run now, in file order; a frozen clock would otherwise hold them until the next advance.
    (active.scenario.timeline ?? []).forEach((step, i) => {
      const at = momentOf(step.at, active.loadedAt);
      if (at <= clock.now()) run(step, i);
      else active.schedule(at, () => run(step, i), active.cause(step.id ?? `step-${i + 1}`));
    });
  }

  /**
   * A reset puts the store back to its seed, so pending scenario timers would act on records that are gone:
   * they are dropped (for one platform: only rule timers acting for its recipients). Scenarios stay active, so
   * their rules and faults keep applying to what happens next; load a scenario again to replay its timeline.
   */
  private onReset(platformId: string | undefined): void {
    for (const active of this.active) {
      active.cancelTimers(platformId);
      if (platformId === undefined) {
        active.handled.clear();
        active.outages.clear();
      }
      active.record(
        active.cause(),
        platformId === undefined
          ? 'sandbox reset: pending timers dropped'
          : `platform reset: its pending timers dropped`,
        'done',
      );
    }
  }
}

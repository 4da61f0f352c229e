/**
 * The scenario engine: loads scenarios and plays them out on the sandbox clock.
 *
 * - Recipient rules listen for `recipient.notified` and schedule `actAsRecipient` on the clock; the first
 *   matching rule of the active scenarios (in load order) wins.
 * - Timeline steps are clock timers, due relative to the load time or at absolute times.
 * - Faults go to the sandbox's Faults; webhook outages to the webhook dispatcher.
 * Everything a scenario does runs with `cause = scenario:<name>:<rule or step id>`, so contract history,
 * events and the delivery log say which rule or step did it. Each scenario also keeps its own log.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ClockTimer } from '../core/clock.js';
import { type OpContext, type Services, systemContext } from '../domain/context.js';
import { actAsRecipient } from '../domain/lifecycle.js';
import { ApiError } from '../core/errors.js';
import type { Faults } from '../faults/faults.js';
import { sendToRecipients } from '../resources/recipient.js';
import { type ClientFixture, seedClients, seedClientsNow } from '../fixtures/fixtures.js';
import type { ClientRecord, ContractRecord, PlatformRecord, RecipientRecord } from '../store/records.js';
import { isoTime } from '../core/time-format.js';
import { globMatches } from '../core/glob.js';
import { ScenarioError, parseScenario } from './load.js';
import {
  type RecipientMatch,
  type RecipientRule,
  type Scenario,
  type TimelineStep,
  type TokenSelector,
  STEP_KINDS,
  durationMs,
} from './schema.js';

export type Verb = 'view' | 'sign' | 'approve' | 'lock';

/** The webhook dispatcher's outage seam (webhooks module). */
export interface OutageControl {
  startOutage(input: {
    webhookKey?: string;
    url?: string;
    clientKey?: string;
    platformId?: string;
    mode: { status: number; retryAfter?: number } | { refuse: true };
    until?: number;
    cause?: string;
  }): string;
  endOutage(id: string): void;
}

export interface ScenarioLogEntry {
  at: string;
  cause: string;
  what: string;
  outcome: 'done' | 'scheduled' | 'skipped' | 'failed';
  detail?: string;
}

export interface ScenarioSummary {
  name: string;
  description?: string;
  source: string;
  loadedAt: string;
  rules: number;
  steps: number;
  pendingTimers: number;
  faults: string[];
  notes: string[];
  log: ScenarioLogEntry[];
}

export interface BundledScenario {
  name: string;
  description?: string;
  file: string;
}

export interface ScenarioEngineDeps {
  services: Services;
  faults: Faults;
  /** Folder of bundled scenarios (`scenarios/` in the package). */
  bundledDir: string;
  /** The sandbox's --seed, for fault probabilities when a scenario has no `seed:`. */
  seed?: number | undefined;
  /** The default platform and client, looked up fresh (reset re-seeds them). */
  defaultPlatform(): PlatformRecord | undefined;
  defaultClient(): ClientRecord | undefined;
  /** The webhook dispatcher, for outage steps. */
  webhooks?: OutageControl | undefined;
}

interface PendingTimer {
  timer: ClockTimer;
  /** Platform of the recipient a rule timer acts for; timeline timers have none. */
  platformId?: string;
}

interface Active {
  name: string;
  scenario: Scenario;
  source: string;
  loadedAt: number;
  timers: Set<PendingTimer>;
  /** Recipients a rule has already been applied to (a resend notifies again; act once). */
  handled: Set<string>;
  outages: Map<string, string>;
  notes: string[];
  log: ScenarioLogEntry[];
}

const NAME_ONLY = /^[a-z0-9][a-z0-9._-]*$/;
const LOG_LIMIT = 2000;

export class ScenarioEngine {
  private readonly active: Active[] = [];
  private outageCounter = 0;

  constructor(private readonly deps: ScenarioEngineDeps) {
    const { bus } = deps.services;
    bus.on('recipient.notified', (event) => this.onNotified(event.recipientKey));
    bus.on('sandbox.reset', (event) => this.onReset(event.platformId));
  }

  /** Bundled scenario files: name, description, path. */
  async bundled(): Promise<BundledScenario[]> {
    if (!existsSync(this.deps.bundledDir)) return [];
    const files = readdirSync(this.deps.bundledDir)
      .filter((f) => /\.ya?ml$/.test(f))
      .sort();
    const out: BundledScenario[] = [];
    for (const f of files) {
      const file = join(this.deps.bundledDir, f);
      try {
        const s = await parseScenario(readFileSync(file, 'utf8'), file);
        out.push({ name: s.name, ...(s.description ? { description: s.description.trim() } : {}), file });
      } catch {
        out.push({ name: f.replace(/\.ya?ml$/, ''), description: '(invalid: load it to see why)', file });
      }
    }
    return out;
  }

  async list(): Promise<{ bundled: BundledScenario[]; active: ScenarioSummary[] }> {
    return { bundled: await this.bundled(), active: this.activeSummaries() };
  }

  activeSummaries(): ScenarioSummary[] {
    return this.active.map((a) => this.summary(a));
  }

  get(name: string): ScenarioSummary {
    return this.summary(this.find(name));
  }

  /** Reads a scenario: a bundled name, or YAML text. Throws ScenarioError (with line:column) or ApiError 404. */
  async read(nameOrYaml: string): Promise<{ scenario: Scenario; source: string }> {
    return NAME_ONLY.test(nameOrYaml.trim()) ? this.readBundled(nameOrYaml.trim()) : { scenario: await parseScenario(nameOrYaml, '<request>'), source: 'request' };
  }

  async readBundled(name: string): Promise<{ scenario: Scenario; source: string }> {
    const bundled = await this.bundled();
    const bundle = bundled.find((b) => b.name === name || basename(b.file).replace(/\.ya?ml$/, '') === name);
    if (!bundle) {
      throw ApiError.notFound(`No bundled scenario named "${name}"; bundled: ${bundled.map((b) => b.name).join(', ') || 'none'}. To load your own, send its YAML.`);
    }
    return { scenario: await parseScenario(readFileSync(bundle.file, 'utf8'), bundle.file), source: `bundled:${bundle.name}` };
  }

  /**
   * Activates a scenario. `atStart`: loaded by --scenario, when the clock settings were already applied and a
   * data file may hold its data from an earlier run. A scenario with the name of an active one replaces it.
   */
  async activate(scenario: Scenario, source: string, options: { atStart?: boolean; skipData?: boolean } = {}): Promise<ScenarioSummary> {
    const { clock } = this.deps.services;
    const notes: string[] = [];
    if (this.active.some((a) => a.name === scenario.name)) {
      this.unload(scenario.name);
      notes.push(`replaced the active scenario "${scenario.name}"`);
    }
    if (scenario.data) this.checkData(scenario);
    if (!options.atStart && scenario.clock) await this.applyClockAtRunTime(scenario, notes);
    const active: Active = {
      name: scenario.name,
      scenario,
      source,
      loadedAt: clock.now(),
      timers: new Set(),
      handled: new Set(),
      outages: new Map(),
      notes,
      log: [],
    };
    this.active.push(active);
    try {
      for (const fault of scenario.faults ?? []) this.addFault(active, fault);
      if (scenario.data && !options.skipData) await this.seedData(active);
      if (scenario.data && options.skipData) notes.push('data: skipped, the data file already holds the state');
      this.scheduleTimeline(active);
    } catch (error) {
      this.unload(scenario.name);
      throw error;
    }
    // Like a clock advance, loading answers once the work it started (first webhook attempts) has finished.
    await clock.work.settled();
    return this.summary(active);
  }

  /** Reads a scenario file (library use; the control API takes names and text only, never server paths). */
  async loadFile(path: string): Promise<ScenarioSummary> {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw ApiError.notFound(`Cannot read scenario file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    return this.activate(await parseScenario(text, path), `file:${path}`);
  }

  /** Reads and activates in one go (the control API and the library). */
  async load(nameOrYaml: string): Promise<ScenarioSummary> {
    const { scenario, source } = await this.read(nameOrYaml);
    return this.activate(scenario, source);
  }

  /** Cancels the scenario's pending timers, faults and outages. Its past effects stay. */
  unload(name: string): ScenarioSummary {
    const active = this.find(name);
    for (const t of active.timers) t.timer.cancel();
    active.timers.clear();
    this.deps.faults.clear(`scenario:${name}`);
    for (const id of active.outages.values()) this.deps.webhooks?.endOutage(id);
    active.outages.clear();
    this.active.splice(this.active.indexOf(active), 1);
    return this.summary(active);
  }

  unloadAll(): number {
    const names = this.active.map((a) => a.name);
    for (const name of names) this.unload(name);
    return names.length;
  }

  private find(name: string): Active {
    const active = this.active.find((a) => a.name === name);
    if (!active) {
      const names = this.active.map((a) => a.name);
      throw ApiError.notFound(`No active scenario named "${name}"; active: ${names.join(', ') || 'none'}`);
    }
    return active;
  }

  private summary(a: Active): ScenarioSummary {
    return {
      name: a.name,
      ...(a.scenario.description ? { description: a.scenario.description.trim() } : {}),
      source: a.source,
      loadedAt: isoTime(a.loadedAt),
      rules: a.scenario.recipients?.length ?? 0,
      steps: a.scenario.timeline?.length ?? 0,
      pendingTimers: a.timers.size,
      faults: this.deps.faults
        .list()
        .filter((f) => f.source === `scenario:${a.name}`)
        .map((f) => f.id),
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
      else if (start < clock.now()) notes.push(`clock.start ${c.start} is behind the sandbox clock (${isoTime(clock.now())}); the clock was not moved back`);
    }
  }

  // ---- data ---------------------------------------------------------------------------------------------

  private platformFor(scenario: Scenario): PlatformRecord {
    const apiKey = scenario.data?.platform;
    const platform = apiKey !== undefined ? this.deps.services.store.platforms.where('apiKey', apiKey)[0] : this.deps.defaultPlatform();
    if (!platform) {
      throw ApiError.badRequest(
        apiKey !== undefined ? `data.platform: no platform with apiKey "${apiKey}"` : 'data: the sandbox has no platform to add to; name one with data.platform',
      );
    }
    return platform;
  }

  /** Fixed keys must be free before anything is written, so a clash leaves the sandbox as it was. */
  private checkData(scenario: Scenario): void {
    const { store } = this.deps.services;
    const platform = this.platformFor(scenario);
    const clash = (what: string, key: string | undefined, taken: boolean) => {
      if (key !== undefined && taken) throw ApiError.conflict(`Scenario ${scenario.name}: ${what} "${key}" already exists; pick another key or leave it out`);
    };
    for (const c of scenario.data?.clients ?? []) {
      const existing = c.clientKey !== undefined ? store.clients.get(c.clientKey) : undefined;
      if (existing && existing.platformId !== platform.platformId) clash('clientKey', c.clientKey, true);
      for (const u of c.users ?? []) clash('userKey', u.userKey, u.userKey !== undefined && store.users.has(u.userKey));
      for (const t of c.templates ?? []) clash('templateKey', t.templateKey, t.templateKey !== undefined && store.templates.has(t.templateKey));
      for (const k of c.contracts ?? []) clash('contractKey', k.contractKey, k.contractKey !== undefined && store.contracts.has(k.contractKey));
    }
  }

  private async seedData(active: Active): Promise<void> {
    const { scenario } = active;
    const cause = `scenario:${scenario.name}:data`;
    const ctx = systemContext(this.deps.services, cause);
    const before = new Set(Object.keys(this.deps.services.store.data.contracts));
    const clients = await seedClients(ctx, this.platformFor(scenario), scenario.data?.clients ?? [], scenario.seed ?? this.deps.seed);
    const contracts = Object.keys(this.deps.services.store.data.contracts).filter((k) => !before.has(k));
    this.record(
      active,
      cause,
      `data: client(s) ${clients.map((c) => c.clientKey).join(', ')}${contracts.length ? `; contract(s) ${contracts.join(', ')}` : ''}`,
      'done',
    );
  }

  // ---- recipient rules ----------------------------------------------------------------------------------

  private onNotified(recipientKey: string): void {
    const { store } = this.deps.services;
    const recipient = store.recipients.get(recipientKey);
    if (!recipient) return;
    const contract = store.contracts.get(recipient.contractKey);
    if (!contract) return;
    for (const active of this.active) {
      const rules = active.scenario.recipients ?? [];
      for (let i = 0; i < rules.length; i++) {
        const rule = rules[i]!;
        if (!matches(rule.match, recipient, contract)) continue;
        const plan = planFor(rule, recipient.action);
        if (!rule.never && plan.length === 0) continue;
        if (active.handled.has(recipientKey)) return;
        active.handled.add(recipientKey);
        const cause = `scenario:${active.name}:${rule.id ?? `rule-${i + 1}`}`;
        const who = `${recipient.email ?? recipientKey} (${recipient.action}) on "${contract.name}"`;
        if (rule.never) {
          this.record(active, cause, `${who}: never acts`, 'done');
          return;
        }
        for (const { verb, ms } of plan) {
          const label = `${cause}:${verb}:${recipientKey}`;
          this.schedule(active, this.deps.services.clock.now() + ms, () => this.act(active, cause, recipientKey, verb), label, recipient.platformId);
          this.record(active, cause, `${who}: ${verb} at ${isoTime(this.deps.services.clock.now() + ms)}`, 'scheduled');
        }
        return;
      }
    }
  }

  private act(active: Active, cause: string, recipientKey: string, verb: Verb): void {
    const recipient = this.deps.services.store.recipients.get(recipientKey);
    const who = recipient?.email ?? recipientKey;
    // Acting implies viewing, so a view planned after the signature has nothing left to do.
    if (verb === 'view' && recipient && recipient.seenAt !== undefined) {
      this.record(active, cause, `${who}: view`, 'skipped', 'already seen');
      return;
    }
    try {
      actAsRecipient(systemContext(this.deps.services, cause), recipientKey, verb);
      this.record(active, cause, `${who}: ${verb}`, 'done');
    } catch (error) {
      this.record(active, cause, `${who}: ${verb}`, error instanceof ApiError ? 'skipped' : 'failed', (error as Error).message);
    }
  }

  // ---- timeline -----------------------------------------------------------------------------------------

  private scheduleTimeline(active: Active): void {
    const { clock } = this.deps.services;
    const steps = active.scenario.timeline ?? [];
    const due = steps.map((step, i) => ({ step, i, at: momentOf(step.at, active.loadedAt) }));
    // Steps due at load time run now, in file order; a frozen clock would otherwise hold them until the next advance.
    for (const { step, i, at } of due) {
      if (at <= clock.now()) this.runStep(active, step, i);
      else this.schedule(active, at, () => this.runStep(active, step, i), `scenario:${active.name}:${step.id ?? `step-${i + 1}`}`);
    }
  }

  private runStep(active: Active, step: TimelineStep, index: number): void {
    const cause = `scenario:${active.name}:${step.id ?? `step-${index + 1}`}`;
    const kind = STEP_KINDS.find((k) => step[k] !== undefined)!;
    try {
      const what = this.step(active, step, cause);
      this.record(active, cause, `${kind}: ${what}`, 'done');
    } catch (error) {
      this.record(active, cause, kind, 'failed', (error as Error).message);
    }
  }

  /** Runs one step; returns what it did, for the log. */
  private step(active: Active, step: TimelineStep, cause: string): string {
    const services = this.deps.services;
    const ctx = systemContext(services, cause);
    const now = services.clock.now();
    if (step.expireTokens !== undefined) {
      const tokens = this.tokens(step.expireTokens).filter((t) => t.expiresAt > now && t.revokedAt === undefined);
      for (const t of tokens) services.store.tokens.update(t.token, { expiresAt: now });
      return `${tokens.length} token(s) expired`;
    }
    if (step.revokeTokens !== undefined) {
      const tokens = this.tokens(step.revokeTokens).filter((t) => t.revokedAt === undefined);
      for (const t of tokens) services.store.tokens.update(t.token, { revokedAt: now });
      return `${tokens.length} token(s) revoked`;
    }
    if (step.webhookOutage !== undefined) {
      const o = step.webhookOutage;
      if (!this.deps.webhooks) throw new Error('webhook outages need the webhook dispatcher, which this sandbox does not have');
      const client = o.client !== undefined ? this.client(o.client) : undefined;
      const id = this.deps.webhooks.startOutage({
        ...(o.webhook !== undefined ? { webhookKey: o.webhook } : {}),
        ...(o.url !== undefined ? { url: o.url } : {}),
        ...(client ? { clientKey: client.clientKey, platformId: client.platformId } : {}),
        mode: o.refuse ? { refuse: true } : { status: o.status ?? 503, ...(o.retryAfter !== undefined ? { retryAfter: o.retryAfter } : {}) },
        ...(o.for !== undefined ? { until: now + durationMs(o.for) } : {}),
        cause,
      });
      active.outages.set(o.id ?? `outage-${++this.outageCounter}`, id);
      const target = o.webhook ?? o.url ?? (client ? `client ${client.clientKey}` : 'every webhook');
      return `${target} down (${o.refuse ? 'connection refused' : `status ${o.status ?? 503}`})${o.for !== undefined ? ` until ${isoTime(now + durationMs(o.for))}` : ''}`;
    }
    if (step.endWebhookOutage !== undefined) {
      const ids = step.endWebhookOutage === true ? [...active.outages.keys()] : [step.endWebhookOutage];
      for (const id of ids) {
        const dispatcherId = active.outages.get(id);
        if (dispatcherId === undefined) throw new Error(`no outage "${id}" started by this scenario`);
        this.deps.webhooks?.endOutage(dispatcherId);
        active.outages.delete(id);
      }
      return `${ids.length} outage(s) ended`;
    }
    if (step.settings !== undefined) {
      const client = this.client(step.settings.client);
      const { approved, signed } = step.settings.notification;
      services.store.clients.update(client.clientKey, {
        notification: { approved: approved ?? client.notification.approved, signed: signed ?? client.notification.signed },
        changeTime: now,
      });
      return `email notifications of ${client.clientKey}: ${JSON.stringify(services.store.clients.get(client.clientKey)!.notification)}`;
    }
    if (step.act !== undefined) {
      const { match, verb } = step.act;
      const done: string[] = [];
      const refused: string[] = [];
      for (const recipient of services.store.recipients.all()) {
        if (recipient.state === 'waiting') continue;
        const contract = services.store.contracts.get(recipient.contractKey);
        if (!contract || !matches(match, recipient, contract)) continue;
        const v: Verb = verb === 'act' ? recipient.action : verb;
        try {
          actAsRecipient(ctx, recipient.recipientKey, v);
          done.push(`${recipient.email ?? recipient.recipientKey} ${v}`);
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          refused.push(`${recipient.email ?? recipient.recipientKey} cannot ${v}: ${error.message}`);
        }
      }
      if (done.length === 0) throw new Error(refused.length ? refused.join('; ') : 'no notified recipient matched');
      return [...done, ...refused].join(', ');
    }
    if (step.createContract !== undefined) {
      const { client: clientKey, ...contract } = step.createContract;
      const client = this.client(clientKey);
      if (contract.contractKey !== undefined && services.store.contracts.has(contract.contractKey)) {
        throw new Error(`contractKey "${contract.contractKey}" already exists`);
      }
      const platform = services.store.platforms.get(client.platformId)!;
      const before = new Set(services.store.contracts.where('client', client.clientKey).map((c) => c.contractKey));
      const fixture: ClientFixture = { clientKey: client.clientKey, contracts: [contract] };
      seedClientsNow(ctx, platform, [fixture]);
      const created = services.store.contracts.where('client', client.clientKey).find((c) => !before.has(c.contractKey));
      return `contract "${contract.name}" ${created?.contractKey ?? ''}${contract.send ? ' created and sent' : ' created'}`;
    }
    if (step.sendContract !== undefined) {
      const contract = this.contract(step.sendContract.contract);
      const client = services.store.clients.get(contract.clientKey)!;
      const clientCtx: OpContext = { ...ctx, client };
      sendToRecipients(clientCtx, contract, []);
      return `contract ${contract.contractKey} sent`;
    }
    if (step.addFaults !== undefined) {
      const ids = step.addFaults.map((f) => this.addFault(active, f));
      return `fault(s) ${ids.join(', ')} set`;
    }
    if (step.clearFaults !== undefined) {
      return `${this.deps.faults.clear(`scenario:${active.name}`)} fault(s) removed`;
    }
    throw new Error('step has no action');
  }

  private addFault(active: Active, fault: NonNullable<Scenario['faults']>[number]): string {
    const id = fault.id !== undefined ? `${active.name}:${fault.id}` : undefined;
    return this.deps.faults.add({ ...fault, ...(id ? { id } : {}) }, `scenario:${active.name}`, active.scenario.seed ?? this.deps.seed);
  }

  private tokens(selector: TokenSelector) {
    const all = this.deps.services.store.tokens.all();
    if (selector === 'all') return all;
    if (selector === 'platform') return all.filter((t) => t.kind === 'platform');
    return all.filter((t) => t.clientKey === selector.client);
  }

  private client(clientKey: string | undefined): ClientRecord {
    const client = clientKey !== undefined ? this.deps.services.store.clients.get(clientKey) : this.deps.defaultClient();
    if (!client) throw new Error(clientKey !== undefined ? `no client "${clientKey}"` : 'the sandbox has no default client; name one with client:');
    return client;
  }

  private contract(keyOrName: string): ContractRecord {
    const { store } = this.deps.services;
    const contract = store.contracts.get(keyOrName) ?? store.contracts.all().find((c) => c.name === keyOrName);
    if (!contract) throw new Error(`no contract with key or name "${keyOrName}"`);
    return contract;
  }

  // ---- bookkeeping --------------------------------------------------------------------------------------

  private schedule(active: Active, at: number, fn: () => void, label: string, platformId?: string): void {
    const pending: PendingTimer = { timer: undefined as unknown as ClockTimer, ...(platformId !== undefined ? { platformId } : {}) };
    pending.timer = this.deps.services.clock.schedule(
      at,
      () => {
        active.timers.delete(pending);
        fn();
      },
      label,
    );
    active.timers.add(pending);
  }

  private record(active: Active, cause: string, what: string, outcome: ScenarioLogEntry['outcome'], detail?: string): void {
    active.log.push({ at: isoTime(this.deps.services.clock.now()), cause, what, outcome, ...(detail !== undefined ? { detail } : {}) });
    // A rule that matches everyone in a long-running sandbox must not grow without bound: keep the newest.
    if (active.log.length > LOG_LIMIT) active.log.splice(0, active.log.length - LOG_LIMIT);
  }

  /**
   * A reset puts the store back to its seed, so pending scenario timers would act on records that are gone:
   * they are dropped (for one platform: only rule timers acting for its recipients). Scenarios stay active, so
   * their rules and faults keep applying to what happens next; load a scenario again to replay its timeline.
   */
  private onReset(platformId: string | undefined): void {
    for (const active of this.active) {
      for (const t of [...active.timers]) {
        if (platformId !== undefined && t.platformId !== platformId) continue;
        t.timer.cancel();
        active.timers.delete(t);
      }
      if (platformId === undefined) {
        active.handled.clear();
        active.outages.clear();
      }
      this.record(active, `scenario:${active.name}`, platformId === undefined ? 'sandbox reset: pending timers dropped' : `platform reset: its pending timers dropped`, 'done');
    }
  }
}

/** Verbs a rule makes a recipient of this role perform, with their delays, views first. */
function planFor(rule: RecipientRule, role: Verb): { verb: Verb; ms: number }[] {
  const plan: { verb: Verb; ms: number }[] = [];
  if (rule.view !== undefined) plan.push({ verb: 'view', ms: durationMs(rule.view) });
  const own = rule.act ?? rule[role];
  if (own !== undefined && role !== 'view') plan.push({ verb: role, ms: durationMs(own) });
  if (role === 'view' && rule.view === undefined && rule.act !== undefined) plan.push({ verb: 'view', ms: durationMs(rule.act) });
  return plan;
}

export function matches(match: RecipientMatch, recipient: RecipientRecord, contract: ContractRecord): boolean {
  if (match.recipient !== undefined && match.recipient !== recipient.recipientKey) return false;
  if (match.email !== undefined && !globMatches(match.email, recipient.email ?? '')) return false;
  if (match.name !== undefined && !globMatches(match.name, recipient.fullname ?? '')) return false;
  if (match.role !== undefined && !(Array.isArray(match.role) ? match.role : [match.role]).includes(recipient.action)) return false;
  if (match.position !== undefined) {
    const positions = Array.isArray(match.position) ? match.position : [match.position];
    if (recipient.position === undefined || !positions.includes(recipient.position)) return false;
  }
  if (match.client !== undefined && match.client !== contract.clientKey) return false;
  if (match.contract !== undefined && match.contract !== contract.contractKey && !globMatches(match.contract, contract.name)) return false;
  return true;
}

function momentOf(at: string | number, loadedAt: number): number {
  if (typeof at === 'string' && /\d{4}-\d{2}-\d{2}T/.test(at)) return Date.parse(at);
  return loadedAt + durationMs(at);
}

export { ScenarioError };

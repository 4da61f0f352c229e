/**
 * The shape shared by the library (`startSandbox`, in-process) and the control client (`createControlClient` in
 * client/control-client.ts, over HTTP): the same methods with the same answers, so a test suite can switch between a sandbox it started
 * and one started elsewhere without changing its assertions. Every method is async in both.
 *
 * Written by hand, as the library's public contract (its TSDoc is what users read), and the control table's type:
 * each method is served by one entry of control-table/ (`ControlTable`), and the compiler refuses a method without an
 * entry or an entry without a method (docs/architecture.md, "Rules": what a new control operation touches).
 */
import type { ClockState } from '../core/clock.js';
import type { JournalEntry, JournalFilter } from '../journal/journal.js';
import type { Snapshot } from '../store/snapshot.js';
import type { DeliveryView } from '../webhooks/dispatcher.js';
import type { ReceiverFaultInput, ReceiverFaultView } from '../webhooks/receiver-fault-spec.js';
export type { ReceiverFaultInput } from '../webhooks/receiver-fault-spec.js';
import type { FaultView } from '../api-faults/registry.js';
import type { faultSpec } from '../api-faults/spec.js';
import type { z } from 'zod';
import type { Email, EmailFilter } from '../outbox/outbox.js';
import type { ContractInspection, inspectRecipient } from './inspection.js';
import type { ReadinessReport } from '../readiness/report.js';
import type { ReportOptionsInput } from '../readiness/thresholds.js';
import type { RateLimitView } from '../rate-limits/rate-limits.js';

export type { ClockState } from '../core/clock.js';
export type { ContractInspection } from './inspection.js';
export type { JournalEntry, JournalFilter } from '../journal/journal.js';
export type { Snapshot } from '../store/snapshot.js';
export type { DeliveryView } from '../webhooks/dispatcher.js';
export type { ReadinessReport, Finding, CheckResult } from '../readiness/report.js';
export type { Evidence, RequestEvidence, DeliveryEvidence, Severity } from '../readiness/check.js';
export type { RateLimitView } from '../rate-limits/rate-limits.js';

export type { Email, EmailFilter } from '../outbox/outbox.js';

/** What a reset did: everything, or one platform's records (removed, and restored from the fixtures). */
export type ResetResult =
  | { scope: 'all' }
  | { scope: 'platform'; apiKey: string; platformId: string; removed: number; restored: number };

/** One line of a scenario's own log. */
export interface ScenarioLogEntry {
  /** When, on the clock named by `clock` (docs/scenarios.md, "Seeing what happened"). */
  at: string;
  /** The clock `at` (and any time in `what`) is read on: the sandbox's, or a tenant's own. */
  clock: 'sandbox' | 'tenant';
  /** With `clock: "tenant"`: that tenant's API key. */
  tenant?: string;
  cause: string;
  what: string;
  outcome: 'done' | 'scheduled' | 'skipped' | 'failed';
  detail?: string;
}

/** An active scenario as the control API shows it. */
export interface ScenarioSummary {
  name: string;
  /** The API key of the tenant it plays for; absent: it plays for the whole sandbox, every tenant (docs/scenarios.md). */
  apiKey?: string;
  description?: string;
  source: string;
  loadedAt: string;
  rules: number;
  steps: number;
  pendingTimers: number;
  faults: string[];
  /** Ids of the receiver faults it set (docs/webhooks.md). */
  receiverFaults: string[];
  notes: string[];
  log: ScenarioLogEntry[];
  /** Its `expect:` entries, each met, pending or failed, with the evidence (docs/scenarios.md, "expect"). */
  expectations: ScenarioExpectation[];
}

/** One `expect:` entry of a scenario, judged now. */
export interface ScenarioExpectation {
  id: string;
  status: 'met' | 'pending' | 'failed';
  /** The request or delivery that met (or broke) it, the deadline that passed, or what it still waits for. */
  evidence: string;
}

/** A scenario file bundled with the package. */
export interface BundledScenario {
  name: string;
  description?: string;
  file: string;
}

/** A recipient as the control API shows it: state, times, signature, the link of its page. */
export type InspectedRecipient = ReturnType<typeof inspectRecipient>;

/**
 * The former name of `InspectedRecipient`, kept so code written against it still compiles: "RecipientView" is
 * the vendor's recipient component, which this is not.
 * @deprecated Use `InspectedRecipient`.
 */
export type RecipientView = InspectedRecipient;

/** What acting as a recipient answers: the recipient after the act, and its contract's status. */
export interface RecipientActResult {
  recipient: InspectedRecipient;
  contract: { contractKey: string; status: string };
}

/** Act as a recipient (docs/lifecycle.md): in turn, in its role, once per verb; refused with 409 otherwise. */
export interface SandboxRecipients {
  view(recipientKey: string): Promise<RecipientActResult>;
  /** `signature`: a text signature, or an image as a base64 data URI (default: a stub). */
  sign(recipientKey: string, options?: { signature?: string }): Promise<RecipientActResult>;
  approve(recipientKey: string): Promise<RecipientActResult>;
  lock(recipientKey: string): Promise<RecipientActResult>;
}

/** Scenarios (docs/scenarios.md): scripted recipients, timelines, data and faults. */
export interface SandboxScenarios {
  /** A bundled scenario's name (`happy-path`), or scenario YAML text. Resolves once the work it started has settled. */
  load(nameOrYaml: string): Promise<ScenarioSummary>;
  /** A scenario file on this machine (read here, sent as YAML). `load()` also takes a path to a .yaml/.yml file. */
  loadFile(path: string): Promise<ScenarioSummary>;
  /** Stops a scenario: its pending steps, faults and outages end; what it already did stays. */
  unload(name: string): Promise<ScenarioSummary>;
  /** The bundled scenarios and the active ones. */
  list(): Promise<{ bundled: BundledScenario[]; active: ScenarioSummary[] }>;
  /** One active scenario (404 when none has that name). */
  get(name: string): Promise<ScenarioSummary>;
  /** Unloads every active scenario; resolves with how many there were. */
  unloadAll(): Promise<number>;
}

/** A fault as you write it (`match` may be left out: it then hits every /api request). */
export type FaultInput = z.input<ReturnType<typeof faultSpec>>;

/** API faults (docs/scenarios.md): errors, latency or dropped connections on matching /api requests. */
export interface SandboxFaults {
  /** Adds one fault or several; resolves with their ids. */
  set(spec: FaultInput | FaultInput[]): Promise<string[]>;
  /** Removes one fault (404 when no fault has that id). */
  remove(id: string): Promise<void>;
  /** Removes every fault; resolves with how many there were. */
  clear(): Promise<number>;
  list(): Promise<FaultView[]>;
}

export interface SandboxOutbox {
  /** Emails the service would have sent, oldest first. */
  list(filter?: EmailFilter): Promise<Email[]>;
  /** Empties it; resolves with how many emails went. */
  clear(): Promise<number>;
}

export interface SandboxWebhooks {
  /** The webhook delivery log, oldest first: each delivery with its payload, attempts and next retry. */
  deliveries(filter?: DeliveryQuery): Promise<DeliveryView[]>;
  /** One delivery (404 when no delivery has that id). */
  delivery(id: string): Promise<DeliveryView>;
  /** Sends a delivery again at once (same webhook-id); resolves with the delivery after the attempt. */
  redeliver(id: string): Promise<DeliveryView>;
  /** Receiver faults: deliveries spoilt on purpose to test your handler. */
  faults: {
    set(spec: ReceiverFaultInput | ReceiverFaultInput[]): Promise<string[]>;
    remove(id: string): Promise<void>;
    clear(): Promise<number>;
    list(): Promise<ReceiverFaultView[]>;
  };
}

/** Which webhook deliveries to answer (every field optional, all must match). */
export interface DeliveryQuery {
  webhookKey?: string;
  event?: string;
  status?: 'pending' | 'delivered' | 'failed';
  contractKey?: string;
  clientKey?: string;
}

/** A duration: "90s", "30m", "2h", "1d", "1h30m", "500ms", or a number of seconds. */
export type Duration = string | number;

export interface Health {
  status: 'ok';
  version: string;
  now: string;
  clock: 'real' | 'frozen';
  persistent: boolean;
  counts: Record<string, number>;
  [extra: string]: unknown;
}

export interface Platform {
  platformId: string;
  apiKey: string;
  secret: string;
  /** The tenant's own clock, when it was created with one. */
  clock?: ClockState;
  /** The tenant's quota, when it was created with one (docs/readiness.md). */
  rateLimit?: string;
}

/** A new platform (tenant); with `clock`, its own clock, starting at `start` (default: the sandbox clock's time). */
export interface NewPlatform {
  apiKey?: string;
  secret?: string;
  name?: string;
  clock?: 'frozen' | 'real';
  start?: string;
  /** A quota like a test mode for this tenant: "10/min", "2/s", "500/h" (docs/readiness.md). */
  rateLimit?: string;
}

export interface SandboxClock {
  /** Sandbox time. */
  now(): Promise<Date>;
  state(): Promise<ClockState>;
  /** Moves time forward; resolves once every timer that fell due (webhook retries, scenario steps) has run. */
  advance(by: Duration): Promise<ClockState>;
  freeze(): Promise<ClockState>;
  unfreeze(): Promise<ClockState>;
  /** Jumps to a time (ISO 8601, epoch ms or a Date); forward jumps run the timers on the way. */
  set(to: string | number | Date): Promise<ClockState>;
}

export interface SandboxControl {
  clock: SandboxClock;
  health(): Promise<Health>;
  /** Everything back to the seeded state, or with `{apiKey}` only that platform (tenant). */
  reset(options?: { apiKey?: string }): Promise<ResetResult>;
  /** A new isolated platform account: give each test file its own. */
  createPlatform(input?: NewPlatform): Promise<Platform>;
  /** The request journal, oldest first, secrets redacted. */
  requests(filter?: JournalFilter): Promise<JournalEntry[]>;
  /** Empties the journal, or one platform's part of it. */
  clearRequests(options?: { apiKey?: string }): Promise<void>;
  /** The whole state as one document. */
  snapshot(): Promise<Snapshot>;
  /** Puts a snapshot back (validated; refused whole when wrong). */
  restore(snapshot: Snapshot): Promise<void>;
  /** Force-expires one token, or every live token. */
  expireTokens(token?: string): Promise<{ expired: number }>;
  /** Act as recipients: view, sign, approve, lock. */
  recipients: SandboxRecipients;
  /** A contract as the sandbox holds it: status, recipients with their state and times, placeholders, history. */
  contract(contractKey: string): Promise<ContractInspection>;
  scenarios: SandboxScenarios;
  faults: SandboxFaults;
  /** The outbox: emails the service would have sent, oldest first. */
  outbox: SandboxOutbox;
  /** Webhook deliveries: the log, redelivery, receiver faults (docs/webhooks.md). */
  webhooks: SandboxWebhooks;
  /**
   * The go-live readiness report (docs/readiness.md): a verdict, findings with evidence, what was never tried, and
   * coverage, from the /api requests and webhook deliveries the sandbox saw. Options: thresholds, checks to ignore.
   */
  report(options?: ReportOptions): Promise<ReadinessReport>;
  /**
   * Waits until nothing is due now: timers due at this instant run, webhook attempts and reactions in flight finish.
   * Time does not move (docs/library.md, "settle").
   */
  settle(): Promise<ClockState>;
  /** Quotas like a test mode (docs/readiness.md): per API key, on the sandbox clock. */
  rateLimit: {
    get(): Promise<RateLimitView>;
    /** `"10/min"`, `"2/s"`, `"500/h"`, or null to turn it off. */
    set(rateLimit: string | null): Promise<RateLimitView>;
  };
}

/** A report's options: thresholds (docs/readiness.md, "Thresholds") and check ids to leave out. */
export type ReportOptions = ReportOptionsInput;

/**
 * The parts of the control API about one tenant's world, declared once: `sandbox.tenant(apiKey)` offers them
 * (`SandboxTenant`), and every operation of these parts is also served under `/__sandbox/platforms/{apiKey}/…`
 * (control-table/index.ts `isTenantOperation`; docs/library.md).
 */
export const TENANT_PARTS = [
  'clock',
  'reset',
  'expireTokens',
  'recipients',
  'contract',
  'outbox',
  'webhooks',
  'requests',
  'clearRequests',
  'scenarios',
  'faults',
  'report',
  'settle',
  'rateLimit',
] as const satisfies readonly (keyof SandboxControl)[];

export type TenantPart = (typeof TENANT_PARTS)[number];

/**
 * One tenant's world: its clock (its own, given by the first clock operation if it had none), its records, emails,
 * deliveries, journal, scenarios and faults. The same methods and answers as the sandbox's, scoped.
 */
export interface SandboxTenant extends Pick<SandboxControl, TenantPart> {
  readonly apiKey: string;
}

/** A refusal from the sandbox: the HTTP status and the service's error body. */
export class SandboxControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: { path: string; message: string }[],
  ) {
    super(message);
    this.name = 'SandboxControlError';
  }
}

/**
 * esign-sandbox as a library: start sandboxes from test code, each on its own port, with no shared state.
 *
 *   import { startSandbox } from 'esign-sandbox';
 *   const sandbox = await startSandbox({ clock: 'frozen' });
 *   // … point your client at sandbox.url with sandbox.apiKey / sandbox.secret …
 *   await sandbox.clock.advance('31m');
 *   expect(await sandbox.requests({ path: '/api/contract', status: '4xx' })).toEqual([]);
 *   await sandbox.close();
 *
 * For a sandbox started elsewhere (another process, a CI service), `createControlClient(url)` gives the same
 * methods over HTTP.
 */
import type { SandboxOptions } from './config/options.js';
import {
  type Health,
  type SandboxClock,
  type SandboxControl,
  SandboxControlError,
  type SandboxWebhooks,
} from './control/sandbox-control.js';
import { isScenarioFile } from './client/scenario-files.js';
import type { FaultOperations } from './control/faults.js';
import type { OutageSpec } from './webhooks/dispatcher.js';
import { ApiError } from './core/errors.js';
import { type Sandbox, createSandbox } from './sandbox.js';
import type { Snapshot } from './store/snapshot.js';
import type { Verb } from './domain/lifecycle-rules.js';

export type { SandboxOptions } from './config/options.js';
export type { Sandbox } from './sandbox.js';
export type { LogFormat } from './config/options.js';
export type { TlsMaterial } from './http/tls.js';
export type {
  ClockState,
  DeliveryQuery,
  Duration,
  Email,
  EmailFilter,
  RecipientActResult,
  InspectedRecipient,
  RecipientView,
  SandboxFaults,
  SandboxScenarios,
  FaultInput,
  SandboxRecipients,
  Health,
  JournalEntry,
  JournalFilter,
  Platform,
  ResetResult,
  SandboxClock,
  SandboxControl,
  Snapshot,
} from './control/sandbox-control.js';
export { SandboxControlError } from './control/sandbox-control.js';
export type { SandboxOutbox, SandboxWebhooks, ReceiverFaultInput } from './control/sandbox-control.js';
export type { ReceiverFaultView } from './webhooks/receiver-fault-spec.js';
export { type ControlClient, type ControlClientOptions, createControlClient } from './client/control-client.js';
export { createSandbox } from './sandbox.js';
export { ConfigError } from './config/options.js';
export { openApiDocument } from './openapi/document.js';
export { VERSION } from './config/version.js';
export { ScenarioError, type ScenarioProblem } from './scenarios/load.js';
export type { Scenario } from './scenarios/schema.js';
export type { FaultSpec } from './api-faults/spec.js';
export type { ScenarioSummary, ScenarioLogEntry, BundledScenario } from './control/sandbox-control.js';
export type { FaultView } from './api-faults/registry.js';
// A test helper shipped with the package (docs/library.md, "Test helpers"): a webhook receiver for your tests.
export { createWebhookReceiver } from './testing/webhook-receiver.js';
export type {
  FailureMode,
  ReceivedDelivery,
  WebhookReceiver,
  WebhookReceiverOptions,
} from './testing/webhook-receiver.js';
export type { DeliveryFilter, DeliveryView, OutageSpec } from './webhooks/dispatcher.js';

export interface RunningSandbox extends SandboxControl {
  /** Base URL, e.g. http://127.0.0.1:53211 (https:// with `tls`). API under /api, control under /__sandbox. */
  url: string;
  port: number;
  /** The default platform's credentials (from the fixtures, or options.apiKey/secret). */
  apiKey: string | undefined;
  secret: string | undefined;
  /** The default client's key. */
  clientKey: string | undefined;
  /** Header that carries the API key, as configured (default X-Service-Key). */
  apiKeyHeader: string;
  /** With `tls`: the certificate (PEM) and where it is on disk, to trust it (NODE_EXTRA_CA_CERTS, an https Agent's `ca`). */
  tls: { cert: string; certFile: string } | undefined;
  /** Stops listening, drops timers, writes the data file. */
  close(): Promise<void>;
  /** The clock, plus `nowSync()`: sandbox time without awaiting (in-process only, e.g. to compare with a payload's `timestamp`). */
  clock: SandboxClock & { nowSync(): Date };
  /** The delivery log, redelivery and receiver faults, plus simulated receiver outages (in process only). */
  webhooks: SandboxWebhooks & {
    /** A receiver goes down: every attempt matching the spec fails (docs/webhooks.md); resolves with its id. */
    startOutage(spec: OutageSpec): string;
    endOutage(id: string): void;
  };
  /** The wired sandbox, for advanced use (its Hono app answers `app.request()` in-process). */
  sandbox: Sandbox;
}

/** Runs a control operation in process so that refusals look exactly like the control client's (SandboxControlError). */
async function inProcess<T>(fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    // A ScenarioError already is a SandboxControlError, with its problems.
    if (error instanceof ApiError) throw new SandboxControlError(error.status, error.message, error.errors);
    throw error;
  }
}

/** Starts a sandbox listening on `options.port` (default 0: a free port). Many can run in one process. */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const sandbox = await createSandbox(options, { port: 0, webhooksAfterListen: true });
  const url = await sandbox.listen();
  // Each method is one control operation (control/control.ts), the same one the /__sandbox route calls.
  const { state, clock, recipients, outbox, webhooks, journal, faults } = sandbox.control;
  const engine = sandbox.scenarios;
  const act = (recipientKey: string, verb: Verb, signature?: string) =>
    inProcess(() => recipients.actAndSettle(recipientKey, verb, signature !== undefined ? { signature } : {}));
  const account = sandbox.defaultAccount;
  return {
    url,
    port: Number(new URL(url).port),
    apiKey: account.apiKey,
    secret: account.secret,
    clientKey: account.clientKey,
    apiKeyHeader: options.apiKeyHeader ?? 'X-Service-Key',
    tls: sandbox.tls ? { cert: sandbox.tls.cert, certFile: sandbox.tls.certFile } : undefined,
    clock: {
      now: async () => new Date(sandbox.services.clock.now()),
      nowSync: () => new Date(sandbox.services.clock.now()),
      state: async () => clock.state(),
      advance: (by) => inProcess(() => clock.advance({ by })),
      freeze: async () => clock.freeze(),
      unfreeze: async () => clock.unfreeze(),
      set: (to) => inProcess(() => clock.set({ to: to instanceof Date ? to.toISOString() : to })),
    },
    health: async (): Promise<Health> => state.health(),
    reset: (opts = {}) => inProcess(() => state.reset(opts)),
    createPlatform: (input = {}) => inProcess(() => state.createPlatform(input)),
    requests: (filter = {}) => inProcess(() => journal.list(filter).requests),
    clearRequests: (opts = {}) => inProcess(() => void journal.clear(opts)),
    snapshot: async () => state.snapshot(),
    restore: (snapshot: Snapshot) => inProcess(async () => void (await state.restore(snapshot))),
    expireTokens: (token) => inProcess(() => state.expireTokens(token !== undefined ? { token } : {})),
    recipients: {
      view: (key) => act(key, 'view'),
      sign: (key, opts = {}) => act(key, 'sign', opts.signature),
      approve: (key) => act(key, 'approve'),
      lock: (key) => act(key, 'lock'),
    },
    scenarios: {
      load: (nameOrYaml) =>
        inProcess(() => (isScenarioFile(nameOrYaml) ? engine.loadFile(nameOrYaml.trim()) : engine.load(nameOrYaml))),
      loadFile: (path) => inProcess(() => engine.loadFile(path)),
      unload: (name) => inProcess(() => engine.unload(name)),
      list: async () => engine.list(),
    },
    faults: inProcessFaults(faults),
    outbox: {
      list: (filter = {}) => inProcess(() => outbox.list(filter)),
      clear: async () => outbox.clear(),
    },
    webhooks: {
      deliveries: (filter = {}) => inProcess(() => webhooks.deliveries(filter)),
      delivery: (id) => inProcess(() => webhooks.delivery(id)),
      redeliver: (id) => inProcess(() => webhooks.redeliver(id)),
      startOutage: (spec) => webhooks.startOutage(spec),
      endOutage: (id) => webhooks.endOutage(id),
      faults: inProcessFaults(webhooks.faults),
    },
    close: () => sandbox.close(),
    sandbox,
  };
}

/** A list of faults (API or receiver faults) as the library offers it: `set`, `remove`, `clear`, `list`. */
function inProcessFaults<View>(faults: FaultOperations<View>) {
  return {
    set: (spec: unknown) => inProcess(() => faults.add(spec)),
    remove: (id: string) => inProcess(() => faults.remove(id)),
    clear: async () => faults.clear(),
    list: async () => faults.list(),
  };
}

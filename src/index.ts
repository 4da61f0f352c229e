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
} from './control/api.js';
import { isScenarioFile } from './control/scenario-files.js';
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
} from './control/api.js';
export { SandboxControlError } from './control/api.js';
export type { SandboxOutbox, SandboxWebhooks, ReceiverFaultInput } from './control/api.js';
export type { ReceiverFaultView } from './webhooks/receiver-faults.js';
export { type ControlClient, type ControlClientOptions, createControlClient } from './control/client.js';
export { createSandbox } from './sandbox.js';
export { ConfigError } from './config/options.js';
export { openApiDocument } from './openapi/document.js';
export { VERSION } from './config/version.js';
export { ScenarioError, type ScenarioProblem } from './scenarios/load.js';
export type { Scenario } from './scenarios/schema.js';
export type { FaultSpec } from './faults/spec.js';
export type { ScenarioSummary, ScenarioLogEntry, BundledScenario } from './control/api.js';
export type { FaultView } from './faults/faults.js';
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
  const { control } = sandbox;
  const { engine } = sandbox.scenarios;
  const act = (recipientKey: string, verb: Verb, signature?: string) =>
    inProcess(() => control.actAndSettle(recipientKey, verb, signature !== undefined ? { signature } : {}));
  return {
    url,
    port: Number(new URL(url).port),
    apiKey: sandbox.defaults.apiKey,
    secret: sandbox.defaults.secret,
    clientKey: sandbox.defaults.clientKey,
    apiKeyHeader: options.apiKeyHeader ?? 'X-Service-Key',
    tls: sandbox.tls ? { cert: sandbox.tls.cert, certFile: sandbox.tls.certFile } : undefined,
    clock: {
      now: async () => new Date(sandbox.services.clock.now()),
      nowSync: () => new Date(sandbox.services.clock.now()),
      state: async () => control.clockState(),
      advance: (by) => inProcess(() => control.advanceClock({ by })),
      freeze: async () => control.freezeClock(),
      unfreeze: async () => control.unfreezeClock(),
      set: (to) => inProcess(() => control.setClock({ to: to instanceof Date ? to.toISOString() : to })),
    },
    health: async (): Promise<Health> => control.health(),
    reset: (opts = {}) => inProcess(() => control.reset(opts)),
    createPlatform: (input = {}) => inProcess(() => control.createPlatform(input)),
    requests: (filter = {}) => inProcess(() => control.requests(filter).requests),
    clearRequests: (opts = {}) => inProcess(() => void control.clearRequests(opts)),
    snapshot: async () => control.snapshot(),
    restore: (snapshot: Snapshot) => inProcess(async () => void (await control.restore(snapshot))),
    expireTokens: (token) => inProcess(() => control.expireTokens(token !== undefined ? { token } : {})),
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
    faults: {
      set: (spec) => inProcess(() => control.addFaults(spec)),
      remove: (id) => inProcess(() => control.removeFault(id)),
      clear: async () => control.clearFaults(),
      list: async () => control.faults(),
    },
    outbox: {
      list: (filter = {}) => inProcess(() => control.emails(filter)),
      clear: async () => control.clearEmails(),
    },
    webhooks: {
      deliveries: (filter = {}) => inProcess(() => control.deliveries(filter)),
      delivery: (id) => inProcess(() => control.delivery(id)),
      redeliver: (id) => inProcess(() => control.redeliver(id)),
      startOutage: (spec) => control.startOutage(spec),
      endOutage: (id) => control.endOutage(id),
      faults: {
        set: (spec) => inProcess(() => control.addReceiverFaults(spec)),
        remove: (id) => inProcess(() => control.removeReceiverFault(id)),
        clear: async () => control.clearReceiverFaults(),
        list: async () => control.receiverFaults(),
      },
    },
    emails: (filter = {}) => inProcess(() => control.emails(filter)),
    clearEmails: async () => void control.clearEmails(),
    deliveries: (filter = {}) => inProcess(() => control.deliveries(filter)),
    redeliver: (id) => inProcess(() => control.redeliver(id)),
    close: () => sandbox.close(),
    sandbox,
  };
}

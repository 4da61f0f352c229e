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
import { parseDuration } from './core/clock.js';
import type { SandboxOptions } from './config/options.js';
import { type Health, type SandboxClock, type SandboxControl, SandboxControlError } from './control/api.js';
import { ApiError } from './core/errors.js';
import { type Sandbox, createSandbox } from './sandbox.js';
import { checkSnapshot, snapshotSchema, type Snapshot } from './store/snapshot.js';
import { parseWith } from './core/validation.js';
import { expireTokens, health } from './http/control/index.js';
import { filterQuery as deliveryQuery } from './http/control/webhook-deliveries.js';
import { inspectRecipient } from './http/control/contracts.js';
import { actBody } from './http/control/recipients.js';
import { invalid as invalidScenario } from './http/control/scenarios.js';
import { ScenarioError } from './scenarios/load.js';
import { faultSpec } from './scenarios/schema.js';
import { systemContext } from './domain/context.js';
import { actAsRecipient } from './domain/lifecycle.js';
import type { Verb } from './domain/lifecycle-rules.js';
import type { RecipientActResult } from './control/api.js';
import { VERSION } from './config/version.js';

export type { SandboxOptions } from './config/options.js';
export type { Sandbox } from './sandbox.js';
export type { LogFormat } from './http/request-log.js';
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
export { type ControlClient, type ControlClientOptions, createControlClient } from './control/client.js';
export { createSandbox } from './sandbox.js';
export { ConfigError } from './config/options.js';
export { openApiDocument } from './openapi/document.js';
export { VERSION } from './config/version.js';
export { ScenarioError, type ScenarioProblem } from './scenarios/load.js';
export type { Scenario, FaultSpec } from './scenarios/schema.js';
export type { ScenarioSummary, ScenarioLogEntry, BundledScenario } from './scenarios/engine.js';
export type { FaultView } from './faults/faults.js';
export { createWebhookReceiver } from './testing/webhook-receiver.js';
export type { FailureMode, ReceivedDelivery, WebhookReceiver, WebhookReceiverOptions } from './testing/webhook-receiver.js';
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
  /** The clock, plus `nowSync()`: sandbox time without awaiting (in-process only, e.g. for a receiver's `now`). */
  clock: SandboxClock & { nowSync(): Date };
  /** The wired sandbox, for advanced use (its Hono app answers `app.request()` in-process). */
  sandbox: Sandbox;
}

/** Scenario errors answer 400 with their problems, as POST /__sandbox/scenarios does. */
async function scenarioCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof ScenarioError) throw invalidScenario(error);
    throw error;
  }
}

/** Runs in-process control code so that refusals look exactly like the control client's. */
async function inProcess<T>(fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof ApiError) throw new SandboxControlError(error.status, error.message, error.errors);
    throw error;
  }
}

function toMs(to: string | number | Date): number {
  const ms = to instanceof Date ? to.getTime() : typeof to === 'number' ? to : Date.parse(to);
  if (!Number.isFinite(ms)) throw new SandboxControlError(400, `Cannot read time "${String(to)}"; use ISO 8601 like 2026-01-01T09:00:00Z`);
  return ms;
}

/** Starts a sandbox listening on `options.port` (default 0: a free port). Many can run in one process. */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const sandbox = await createSandbox(options, { port: 0 });
  const url = await sandbox.listen();
  const { clock } = sandbox.services;
  /** The same as POST /__sandbox/recipients/{key}/{verb} answers. */
  const act = (recipientKey: string, verb: Verb, signature?: string): Promise<RecipientActResult> =>
    inProcess(() => {
      if (signature !== undefined) parseWith(actBody(), { signature });
      const recipient = actAsRecipient(systemContext(sandbox.services, 'control'), recipientKey, verb, { signature });
      const contract = sandbox.services.store.contracts.get(recipient.contractKey)!;
      return { recipient: inspectRecipient(recipient, url), contract: { contractKey: contract.contractKey, status: contract.status } };
    });
  return {
    url,
    port: Number(new URL(url).port),
    apiKey: sandbox.defaults.apiKey,
    secret: sandbox.defaults.secret,
    clientKey: sandbox.defaults.clientKey,
    apiKeyHeader: options.apiKeyHeader ?? 'X-Service-Key',
    tls: sandbox.tls ? { cert: sandbox.tls.cert, certFile: sandbox.tls.certFile } : undefined,
    clock: {
      now: async () => new Date(clock.now()),
      nowSync: () => new Date(clock.now()),
      state: async () => clock.state(),
      advance: (by) =>
        inProcess(async () => {
          const ms = parseDuration(by);
          if (ms === undefined) throw ApiError.badRequest(`Cannot read duration "${by}"; use e.g. "90s", "30m", "2h", "1d", "1h30m" or a number of seconds`);
          await clock.advance(ms);
          return clock.state();
        }),
      freeze: async () => (clock.freeze(), clock.state()),
      unfreeze: async () => (clock.unfreeze(), clock.state()),
      set: (to) =>
        inProcess(async () => {
          await clock.set(toMs(to));
          return clock.state();
        }),
    },
    health: async (): Promise<Health> => health(sandbox.services, VERSION),
    reset: (opts = {}) => inProcess(() => sandbox.reset(opts)),
    createPlatform: (input = {}) => inProcess(() => sandbox.createPlatform(input)),
    requests: (filter = {}) => inProcess(() => sandbox.journal.list(filter)),
    clearRequests: (opts = {}) =>
      inProcess(() => {
        if (opts.apiKey === undefined) return sandbox.journal.clear();
        const platformId = sandbox.journal.platformIdOf(opts.apiKey);
        if (!platformId) throw ApiError.notFound(`No platform with apiKey "${opts.apiKey}"`);
        sandbox.journal.clear(platformId);
      }),
    snapshot: async () => sandbox.snapshot(),
    restore: (snapshot: Snapshot) =>
      inProcess(async () => {
        const checked = parseWith(snapshotSchema(), snapshot) as unknown as Snapshot;
        checkSnapshot(checked);
        await sandbox.restore(checked);
      }),
    expireTokens: (token) => inProcess(() => expireTokens(sandbox.services, token)),
    recipients: {
      view: (key) => act(key, 'view'),
      sign: (key, opts = {}) => act(key, 'sign', opts.signature),
      approve: (key) => act(key, 'approve'),
      lock: (key) => act(key, 'lock'),
    },
    scenarios: {
      load: (nameOrYaml) => inProcess(() => scenarioCall(() => sandbox.scenarios.load(nameOrYaml))),
      unload: (name) => inProcess(() => sandbox.scenarios.unload(name)),
      list: async () => sandbox.scenarios.list(),
    },
    faults: {
      set: (spec) => inProcess(() => sandbox.faults.set((Array.isArray(spec) ? spec : [spec]).map((s) => parseWith(faultSpec(), s)))),
      remove: (id) =>
        inProcess(() => {
          if (!sandbox.faults.remove(id)) throw ApiError.notFound(`No fault with id "${id}"`);
        }),
      clear: async () => sandbox.faults.clear(),
      list: async () => sandbox.faults.list(),
    },
    emails: async (filter = {}) => sandbox.outbox.list(filter),
    clearEmails: async () => sandbox.outbox.clear(),
    deliveries: (filter = {}) => inProcess(() => parseWith(deliveryQuery(), filter)).then((f) => sandbox.webhooks.deliveries(f)),
    redeliver: (id) => inProcess(() => sandbox.webhooks.redeliver(id)),
    close: () => sandbox.close(),
    sandbox,
  };
}

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
  type SandboxClock,
  type SandboxControl,
  SandboxControlError,
  type SandboxTenant,
  type SandboxWebhooks,
} from './control/sandbox-control.js';
import { type ControlName, type ControlOp, callOperation, controlTable, deriveControl } from './control-table/index.js';
import type { OutageSpec } from './webhooks/dispatcher.js';
import { ApiError } from './core/errors.js';
import { DEFAULT_API_KEY_HEADER } from './core/credentials.js';
import { type Sandbox, createSandbox } from './sandbox.js';

export type { SandboxOptions } from './config/options.js';
export type { Sandbox } from './sandbox.js';
export type { LogFormat } from './config/options.js';
export type { TlsMaterial } from './http/tls.js';
// The /api requests and answers, from the schemas that validate them (docs/library.md, "Types of the API").
export type {
  ApiAction,
  ApiDocument,
  ApiDocumentParameters,
  ApiDocumentResponse,
  ApiEndpoint,
  ApiEndpointMethod,
  ApiEndpointRequest,
  ApiEndpointResponse,
  ApiRequest,
  ApiResource,
  ApiResponse,
} from './resources/api-types.js';
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
  NewPlatform,
  ResetResult,
  SandboxTenant,
  ContractInspection,
  SandboxClock,
  SandboxControl,
  Snapshot,
} from './control/sandbox-control.js';
export { SandboxControlError } from './control/sandbox-control.js';
export type {
  CheckResult,
  DeliveryEvidence,
  Evidence,
  Finding,
  RateLimitView,
  ReadinessReport,
  ReportOptions,
  RequestEvidence,
  Severity,
} from './control/sandbox-control.js';
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
// Test helpers shipped with the package (docs/library.md, "Test helpers"): a webhook receiver, a tenant per test,
// and assertions that fail a test with the readiness report's evidence.
export { assertExpectationsMet, assertReady } from './testing/assertions.js';
export {
  type TenantFixtureOptions,
  type TenantSource,
  type TestTenant,
  tenantFixture,
} from './testing/tenant-fixture.js';
export { toJUnit, toMarkdown, toText } from './readiness/formats.js';
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
  /** One tenant's world (its own clock, records, emails…), the same methods scoped (docs/library.md). */
  tenant(apiKey: string): SandboxTenant;
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
  const { control, scenarios } = sandbox;
  // Each method is one operation of the control table, the same one the /__sandbox route calls, in process.
  const invoke = (apiKey: string | undefined) => (name: ControlName, args: unknown[]) =>
    inProcess(async () => {
      const op = controlTable[name] as ControlOp<unknown[]>;
      const world = { control, scenarios, tenant: apiKey !== undefined ? control.state.tenant(apiKey) : undefined };
      if (op.local) return op.local(world, ...args);
      return callOperation(op, args, async (request) =>
        op.handle({ params: {}, query: {}, body: {}, ...request }, world),
      );
    });
  const derived = deriveControl(invoke(undefined));
  const account = sandbox.defaultAccount;
  return {
    ...derived,
    url,
    port: Number(new URL(url).port),
    apiKey: account.apiKey,
    secret: account.secret,
    clientKey: account.clientKey,
    apiKeyHeader: options.apiKeyHeader ?? DEFAULT_API_KEY_HEADER,
    tls: sandbox.tls ? { cert: sandbox.tls.cert, certFile: sandbox.tls.certFile } : undefined,
    clock: { ...derived.clock, nowSync: () => new Date(sandbox.services.clocks.sandbox.now()) },
    webhooks: {
      ...derived.webhooks,
      startOutage: (spec) => control.webhooks.startOutage(spec),
      endOutage: (id) => control.webhooks.endOutage(id),
    },
    tenant: (apiKey) => deriveControl(invoke(apiKey), apiKey),
    close: () => sandbox.close(),
    sandbox,
  };
}

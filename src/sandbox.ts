/**
 * Wires one sandbox: store, clock, ids, event bus, app and control API. The one place that knows them all;
 * nothing here is module-level, so a process can run many sandboxes side by side.
 */
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import type { Hono } from 'hono';
import { createApp } from './http/app.js';
import { Clock } from './core/clock.js';
import { BUNDLED_SCENARIOS, ConfigError, type ResolvedConfig, type SandboxOptions, resolveConfig } from './config/options.js';
import type { Services } from './domain/context.js';
import { contractRoutes } from './http/control/contracts.js';
import { emailRoutes } from './http/control/emails.js';
import { type ResetResult, controlRoutes } from './http/control/index.js';
import { faultRoutes } from './http/control/faults.js';
import { scenarioRoutes } from './http/control/scenarios.js';
import { Faults, type FaultView } from './faults/faults.js';
import { parseWith } from './core/validation.js';
import { ScenarioEngine, type ScenarioSummary, type BundledScenario } from './scenarios/engine.js';
import { type FaultSpec, faultSpec } from './scenarios/schema.js';
import { readStartScenarios, startSettings } from './scenarios/startup.js';
import { answerClientError } from './http/client-error.js';
import { recipientRoutes } from './http/control/recipients.js';
import { requestRoutes } from './http/control/requests.js';
import { signPageRoutes } from './http/control/sign-page.js';
import { stateRoutes } from './http/control/state.js';
import { ApiError, quote } from './core/errors.js';
import { EventBus } from './core/event-bus.js';
import { createIdSource } from './core/ids.js';
import { RequestJournal } from './journal/journal.js';
import { mountDocs } from './openapi/routes.js';
import { Outbox } from './outbox/outbox.js';
import { lineWriter, requestLogger } from './http/request-log.js';
import { type FixtureFile, type SeedResult, applyFixtures, readFixtures } from './fixtures/fixtures.js';
import { type StoreData, emptyData } from './store/records.js';
import { SNAPSHOT_FORMAT, type Snapshot } from './store/snapshot.js';
import { Store } from './store/store.js';
import { deleteTenantRecords, restoreTenantRecords } from './store/tenant.js';
import { isoTime } from './core/time-format.js';
import { type TlsListener, type TlsMaterial, disposeTls, listenTls, loadTls } from './http/tls.js';
import { VERSION } from './config/version.js';
import { webhookDeliveryRoutes } from './http/control/webhook-deliveries.js';
import { WebhookDispatcher } from './webhooks/dispatcher.js';

export type { ResetResult } from './http/control/index.js';

export interface Sandbox {
  readonly config: ResolvedConfig;
  readonly services: Services;
  readonly app: Hono;
  /** Emails the service would have sent (decisions §9): `outbox.list({to?, contractKey?, recipientKey?, kind?})`. */
  readonly outbox: Outbox;
  /** Credentials and keys of the default platform and client (the first of the fixtures). */
  readonly defaults: { apiKey?: string; secret?: string; clientKey?: string; clientName?: string };
  /** Webhook delivery: the delivery log, redelivery, and simulated receiver outages (docs/webhooks.md). */
  readonly webhooks: WebhookDispatcher;
  /** Whether state came from an existing --data file rather than from the fixtures. */
  readonly loadedFromFile: boolean;
  /** Every request answered, redacted and bounded (GET /__sandbox/requests). */
  readonly journal: RequestJournal;
  /** The certificate in use when serving HTTPS. */
  readonly tls: TlsMaterial | undefined;
  /**
   * Back to the seeded state: store re-seeded, timers dropped, outbox and logs cleared. With `apiKey`, only
   * that platform goes back to its seeded records (or to none, for a platform made with createPlatform).
   */
  reset(options?: { apiKey?: string | undefined }): Promise<ResetResult>;
  /** A new isolated platform account (POST /__sandbox/platforms). */
  createPlatform(input?: { apiKey?: string | undefined; secret?: string | undefined; name?: string | undefined }): { platformId: string; apiKey: string; secret: string };
  /** The whole state as one JSON-ready object (GET /__sandbox/state). */
  snapshot(): Snapshot;
  /** Puts a snapshot back; it must already be validated (PUT /__sandbox/state validates). */
  restore(snapshot: Snapshot): Promise<void>;
  /** Scenarios (docs/scenarios.md): load a bundled name or YAML text; scenario errors throw ScenarioError. */
  readonly scenarios: {
    load(nameOrYaml: string): Promise<ScenarioSummary>;
    /** Loads a scenario file from disk (as --scenario does, at run time). */
    loadFile(path: string): Promise<ScenarioSummary>;
    unload(name: string): ScenarioSummary;
    list(): Promise<{ bundled: BundledScenario[]; active: ScenarioSummary[] }>;
    readonly engine: ScenarioEngine;
  };
  /** API faults, as POST /__sandbox/faults sets them. `set` returns the fault ids. */
  readonly faults: {
    set(spec: FaultSpec | FaultSpec[]): string[];
    remove(id: string): boolean;
    clear(): number;
    list(): FaultView[];
  };
  /** Listens on config.port (0 = a free port); resolves with the URL. */
  listen(): Promise<string>;
  /** Stops listening, cancels timers, flushes the data file. */
  close(): Promise<void>;
}

export async function createSandbox(options: SandboxOptions = {}, defaults = { port: 0 }): Promise<Sandbox> {
  const startScenarios = await readStartScenarios(options.scenarios ?? [], BUNDLED_SCENARIOS);
  const config = resolveConfig({ ...options, ...startSettings(options, startScenarios) }, defaults);
  const clock = new Clock({ mode: config.clock, ...(config.start !== undefined ? { start: config.start } : {}) });
  const ids = createIdSource(config.seed);
  const bus = new EventBus();
  const fixtures = await loadFixtures(config.fixtures);
  const { store, loaded } = await Store.open({ ...(config.data ? { file: config.data } : {}), flushMs: config.flushMs });
  // Links in emails and on the sign page need the address: the configured one before listen(), the real one after.
  let baseUrl = `${config.tls ? 'https' : 'http'}://${urlHost(config.host)}:${config.port}`;
  const services: Services = { store, clock, bus, ids };
  const outbox = new Outbox(services, { baseUrl: () => baseUrl });
  const seedOptions = { apiKey: config.apiKey, secret: config.secret, seed: config.seed };

  const seeded: SeedResult = loaded ? defaultsFromStore(services, config) : await applyFixtures(services, fixtures, seedOptions);
  const defaults_ = {
    ...(seeded.defaultPlatform ? { apiKey: seeded.defaultPlatform.apiKey, secret: seeded.defaultPlatform.secret } : {}),
    ...(seeded.defaultClient ? { clientKey: seeded.defaultClient.clientKey, clientName: seeded.defaultClient.fullname ?? seeded.defaultClient.clientKey } : {}),
  };

  async function reset(options: { apiKey?: string | undefined } = {}): Promise<ResetResult> {
    if (options.apiKey !== undefined) return resetPlatform(options.apiKey);
    clock.clearTimers();
    store.replace(emptyData());
    // Re-seeding with the same seed gives the same keys again.
    services.ids = createIdSource(config.seed);
    await applyFixtures(services, fixtures, seedOptions);
    bus.emit({ type: 'sandbox.reset' });
    return { scope: 'all' };
  }

  /** The records the fixtures give, seeded into a scratch store (same seed, same keys as at start). */
  async function seededData(): Promise<StoreData> {
    const { store: scratch } = await Store.open();
    await applyFixtures({ store: scratch, clock, bus: new EventBus(), ids: createIdSource(config.seed) }, fixtures, seedOptions);
    return scratch.data;
  }

  async function resetPlatform(apiKey: string): Promise<ResetResult> {
    const platform = store.platforms.where('apiKey', apiKey)[0];
    if (!platform) throw ApiError.notFound(`No platform with apiKey "${apiKey}"`);
    const seed = await seededData();
    const removed = deleteTenantRecords(store, platform.platformId);
    const restored = restoreTenantRecords(store, seed, apiKey, platform.platformId);
    // Timers belong to their modules: each clears its own for this platform on this event.
    bus.emit({ type: 'sandbox.reset', platformId: platform.platformId });
    return { scope: 'platform', apiKey, platformId: platform.platformId, removed, restored };
  }

  function snapshot(): Snapshot {
    const now = isoTime(clock.now());
    return { format: SNAPSHOT_FORMAT, version: 1, savedAt: now, clock: { now, mode: clock.isFrozen ? 'frozen' : 'real' }, store: structuredClone(store.data) };
  }

  async function restore(snap: Snapshot): Promise<void> {
    clock.clearTimers();
    store.replace(structuredClone(snap.store));
    if (snap.clock) {
      await clock.set(Date.parse(snap.clock.now));
      if (snap.clock.mode === 'frozen') clock.freeze();
      if (snap.clock.mode === 'real') clock.unfreeze();
    }
    // Emails, deliveries and the journal are observations of the old state: modules clear them on this event.
    bus.emit({ type: 'sandbox.reset' });
  }

  function createPlatform(input: { apiKey?: string | undefined; secret?: string | undefined; name?: string | undefined } = {}) {
    if (input.apiKey !== undefined && store.platforms.where('apiKey', input.apiKey).length > 0) {
      throw ApiError.conflict(`A platform with apiKey ${quote(input.apiKey)} already exists`);
    }
    const platform = store.platforms.insert({
      platformId: services.ids.key(),
      apiKey: input.apiKey ?? `pk${services.ids.key(22)}`,
      secret: input.secret ?? `sk${services.ids.key(30)}`,
      ...(input.name ? { name: input.name } : {}),
      createTime: clock.now(),
    });
    return { platformId: platform.platformId, apiKey: platform.apiKey, secret: platform.secret };
  }

  const webhooks = new WebhookDispatcher(services, {
    timeoutMs: config.webhookTimeoutMs,
    logLimit: config.webhookLogLimit,
    userAgent: `esign-sandbox/${VERSION}`,
  });

  const tls = config.tls ? await loadTls({ cert: config.tlsCert, key: config.tlsKey, host: config.host }) : undefined;
  const journal = new RequestJournal(services, config.journalLimit, config.apiKeyHeader);
  const logOut = lineWriter(process.stdout);
  const log = requestLogger({ format: config.log, write: logOut.write, color: process.stdout.isTTY === true });
  if (log) bus.on('request.completed', (event) => log(event.entry));

  const control = controlRoutes({ services, maxBodyBytes: config.maxBodyBytes, version: VERSION, startedAt: clock.now(), reset, createPlatform });
  control.route('/requests', requestRoutes(journal));
  control.route('/state', stateRoutes({ maxBodyBytes: config.maxBodyBytes, snapshot, restore }));
  const faults = new Faults(services, config.seed ?? 1);
  const scenarios = new ScenarioEngine({
    services,
    faults,
    bundledDir: BUNDLED_SCENARIOS,
    seed: config.seed,
    webhooks,
    defaultPlatform: () => (defaults_.apiKey !== undefined ? store.platforms.where('apiKey', defaults_.apiKey)[0] : undefined),
    defaultClient: () => (defaults_.clientKey !== undefined ? store.clients.get(defaults_.clientKey) : undefined),
  });
  control.route('/scenarios', scenarioRoutes(scenarios, config.maxBodyBytes));
  control.route('/faults', faultRoutes(faults, config.maxBodyBytes));
  control.route('/recipients', recipientRoutes(services, config.maxBodyBytes, () => baseUrl));
  control.route('/contracts', contractRoutes(services, () => baseUrl));
  control.route('/emails', emailRoutes(outbox));
  control.route('/sign', signPageRoutes(services, () => baseUrl));
  control.route('/webhook-deliveries', webhookDeliveryRoutes(webhooks));
  const app = createApp({
    apiGate: faults.gate(config.maxBodyBytes),
    services,
    maxBodyBytes: config.maxBodyBytes,
    apiKeyHeader: config.apiKeyHeader,
    control,
    middleware: [
      journal.middleware({
        skip: (path) => path === '/__sandbox/requests' || path === '/openapi.json' || path === '/docs',
        // A snapshot is the whole store: far over the body cap, and costly to copy for nothing.
        skipBodies: (path) => path === '/__sandbox/state',
      }),
    ],
    onInternalError: (error) => process.emitWarning(`esign-sandbox: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
  });
  mountDocs(app, { apiKeyHeader: config.apiKeyHeader });

  for (const { scenario, source } of startScenarios) {
    try {
      // A data file that was loaded already holds what the scenario's data created on the first run.
      await scenarios.activate(scenario, source, { atStart: true, skipData: loaded });
    } catch (error) {
      throw new ConfigError(`scenario ${scenario.name} could not be loaded: ${(error as Error).message}`);
    }
  }

  let server: ServerType | undefined;
  let tlsListener: TlsListener | undefined;

  return {
    config,
    services,
    app,
    outbox,
    defaults: defaults_,
    webhooks,
    loadedFromFile: loaded,
    journal,
    tls,
    reset,
    createPlatform,
    snapshot,
    restore,
    scenarios: {
      load: (nameOrYaml) => scenarios.load(nameOrYaml),
      loadFile: (path) => scenarios.loadFile(path),
      unload: (name) => scenarios.unload(name),
      list: () => scenarios.list(),
      engine: scenarios,
    },
    faults: {
      set: (spec) => (Array.isArray(spec) ? spec : [spec]).map((s) => faults.add(parseWith(faultSpec(), s))),
      remove: (id) => faults.remove(id),
      clear: () => faults.clear(),
      list: () => faults.list(),
    },
    async listen() {
      let port: number;
      if (tls) {
        tlsListener = await listenTls(app, config.host, config.port, tls, (error) => listenError(error, config.host, config.port));
        port = tlsListener.address().port;
      } else {
        server = await listenOn(app, config.host, config.port);
        port = (server.address() as AddressInfo).port;
      }
      baseUrl = `${tls ? 'https' : 'http'}://${urlHost(config.host)}:${port}`;
      return baseUrl;
    },
    async close() {
      clock.close();
      logOut.flush();
      await webhooks.close();
      if (tlsListener) {
        const l = tlsListener;
        tlsListener = undefined;
        await l.close();
      }
      if (tls) disposeTls(tls);
      if (server) {
        const s = server;
        server = undefined;
        await new Promise<void>((resolve) => {
          s.close(() => resolve());
          // Keep-alive connections would hold close() open; the sandbox has nothing left to answer.
          (s as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
        });
      }
      await store.close();
    },
  };
}

async function loadFixtures(path: string): Promise<FixtureFile[]> {
  try {
    return await readFixtures(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new ConfigError(`Fixtures not found: ${path}`);
    throw new ConfigError((error as Error).message);
  }
}

/** With a data file, the default platform is the one whose apiKey was asked for, else the first one stored. */
function defaultsFromStore(services: Services, config: ResolvedConfig): SeedResult {
  const platforms = services.store.platforms.all();
  const platform = (config.apiKey ? platforms.find((p) => p.apiKey === config.apiKey) : undefined) ?? platforms[0];
  const client = platform ? services.store.clients.where('platform', platform.platformId)[0] : undefined;
  return { ...(platform ? { defaultPlatform: platform } : {}), ...(client ? { defaultClient: client } : {}) };
}

/** The host as it goes in a URL: a wildcard address becomes loopback, IPv6 gets brackets. */
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

function listenOn(app: Hono, host: string, port: number): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, hostname: host, port });
    server.on('clientError', answerClientError);
    const onError = (error: NodeJS.ErrnoException) => {
      server.close();
      reject(listenError(error, host, port));
    };
    server.once('error', onError);
    server.once('listening', () => {
      server.off('error', onError);
      resolve(server);
    });
  });
}

function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  if (error.code === 'EADDRINUSE') return new ConfigError(`Port ${port} on ${host} is already in use; pick another with --port (0 picks a free one)`);
  if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') return new ConfigError(`Cannot listen on host ${host}: ${error.message}`);
  if (error.code === 'EACCES') return new ConfigError(`Not allowed to listen on port ${port}: ${error.message}`);
  return error;
}

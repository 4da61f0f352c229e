/**
 * Wires one sandbox: store, clock, ids, event bus, the subsystems fed by events (webhooks, outbox, journal,
 * faults), the control operations, scenarios, and the HTTP app. The one place that knows them all; nothing here is
 * module-level, so a process can run many sandboxes side by side.
 */
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { createServer } from 'node:http';
import { type ServerType, createAdaptorServer } from '@hono/node-server';
import type { Hono } from 'hono';
import {
  BUNDLED_SCENARIOS,
  ConfigError,
  type ResolvedConfig,
  type SandboxOptions,
  resolveConfig,
} from './config/options.js';
import { VERSION } from './config/version.js';
import { type Control, createControl } from './control/control.js';
import { Clock } from './core/clock.js';
import { TenantClocks } from './core/tenant-clocks.js';
import { requestTenant } from './domain/platforms.js';
import { EventBus } from './core/event-bus.js';
import { createIdSource } from './core/ids.js';
import type { Services } from './domain/context.js';
import { ApiFaults } from './api-faults/registry.js';
import { readFixtures } from './fixtures/read.js';
import type { FixtureFile } from './fixtures/schema.js';
import { type SeedResult, applyFixtures } from './fixtures/seed.js';
import { createApp } from './http/app.js';
import { answerClientError, answerExpectation, checkingHost } from './http/client-error.js';
import { controlApiRoutes } from './http/control-api/index.js';
import { faultMiddleware } from './http/api-faults.js';
import { pageRoutes } from './http/pages/index.js';
import { lineWriter, requestLogger } from './http/request-log.js';
import { type TlsListener, type TlsMaterial, disposeTls, listenTls, loadTls } from './http/tls.js';
import { RequestJournal } from './journal/journal.js';
import { requestEvents } from './http/request-events.js';
import { mountDocs } from './openapi/routes.js';
import { Outbox } from './outbox/outbox.js';
import { ScenarioEngine } from './scenarios/engine.js';
import { readStartScenarios, startSettings } from './scenarios/startup.js';
import { Store } from './store/store.js';
import { DocumentStore } from './store/documents.js';
import { createRenderer } from './render/renderer.js';
import { WebhookDispatcher } from './webhooks/dispatcher.js';
import { ReceiverFaults } from './webhooks/receiver-faults.js';

export interface Sandbox {
  readonly config: ResolvedConfig;
  readonly services: Services;
  readonly app: Hono;
  /**
   * Every control operation, by part (control/control.ts): what /__sandbox, the library, the dashboard and
   * scenarios call. Synchronous where the operation is; refusals are ApiErrors.
   */
  readonly control: Control;
  /** The scenario engine (docs/scenarios.md): load, loadFile, unload, list; scenario errors throw ScenarioError. */
  readonly scenarios: ScenarioEngine;
  /** Credentials and keys of the default platform and client (the first of the fixtures, or of the data file). */
  readonly defaultAccount: DefaultAccount;
  /** Whether state came from an existing --data file rather than from the fixtures. */
  readonly loadedFromFile: boolean;
  /** Every request answered, as it is journaled: `journal.onEntry(listener)` sees each one (the request log does). */
  readonly journal: RequestJournal;
  /** The certificate in use when serving HTTPS. */
  readonly tls: TlsMaterial | undefined;
  /** Listens on config.port (0 = a free port); resolves with the URL. */
  listen(): Promise<string>;
  /** Stops listening, cancels timers, flushes the data file. */
  close(): Promise<void>;
}

/** `fallback`: settings the caller's options do not give, and how the start behaves. */
export interface StartDefaults {
  /** The port when the options name none: 0 (a free one) for the library, 4010 for the CLI. */
  port: number;
  /**
   * Deliveries caused at start (fixtures, `--scenario` data) wait until listen(): a receiver that calls back on
   * its first webhook finds the sandbox listening. For callers that always listen (the CLI, startSandbox).
   */
  webhooksAfterListen?: boolean;
}

/** The default platform's credentials and the default client's key and name. */
export interface DefaultAccount {
  apiKey?: string;
  secret?: string;
  clientKey?: string;
  clientName?: string;
}

export async function createSandbox(
  options: SandboxOptions = {},
  fallback: StartDefaults = { port: 0 },
): Promise<Sandbox> {
  const startScenarios = await readStartScenarios(options.scenarios ?? [], BUNDLED_SCENARIOS);
  const config = resolveConfig({ ...options, ...startSettings(options, startScenarios) }, fallback);
  const clock = new Clock({ mode: config.clock, ...(config.start !== undefined ? { start: config.start } : {}) });
  const bus = new EventBus();
  const fixtures = await loadFixtures(config.fixtures);
  const { store, loaded } = await openData(config.data, () =>
    Store.open({ ...(config.data ? { file: config.data } : {}), flushMs: config.flushMs }),
  );
  const documents = await openData(config.data, () => DocumentStore.open(config.data));
  // Links in emails and on the sign page need the address: the configured one before listen(), the real one after.
  let baseUrl = `${config.tls ? 'https' : 'http'}://${urlHost(config.host)}:${config.port}`;
  // Links made outside a request (emails of a clock advance, the control API's records): --public-url, else the
  // listening address (domain/links.ts).
  const linkBase = () => config.publicUrl ?? baseUrl;
  const services: Services = { store, clock, clocks: new TenantClocks(clock), bus, ids: createIdSource(config.seed) };
  const seedOptions = { apiKey: config.apiKey, secret: config.secret, seed: config.seed };
  const seeded: SeedResult = loaded
    ? defaultAccountInStore(services, config)
    : await applyFixtures(services, fixtures, seedOptions);
  const defaultAccount: DefaultAccount = {
    ...(seeded.defaultPlatform ? { apiKey: seeded.defaultPlatform.apiKey, secret: seeded.defaultPlatform.secret } : {}),
    ...(seeded.defaultClient
      ? {
          clientKey: seeded.defaultClient.clientKey,
          clientName: seeded.defaultClient.fullname ?? seeded.defaultClient.clientKey,
        }
      : {}),
  };

  // The subsystems fed by events: each subscribes to the bus itself.
  const outbox = new Outbox(services, { baseUrl: linkBase });
  const receiverFaults = new ReceiverFaults(bus, config.seed ?? 1);
  const webhooks = new WebhookDispatcher(services, {
    timeoutMs: config.webhookTimeoutMs,
    logLimit: config.webhookLogLimit,
    userAgent: `esign-sandbox/${VERSION}`,
    receiverFaults,
  });
  let listening: (() => void) | undefined;
  if (fallback.webhooksAfterListen) webhooks.holdUntil(new Promise<void>((resolve) => (listening = resolve)));
  const journal = new RequestJournal(services, config.journalLimit, config.apiKeyHeader);
  const faults = new ApiFaults(services, config.seed ?? 1);
  const logOut = lineWriter(process.stdout);
  const log = requestLogger({ format: config.log, write: logOut.write, color: process.stdout.isTTY === true });
  if (log) journal.onEntry(log);

  const control = createControl({
    services,
    outbox,
    webhooks,
    receiverFaults,
    faults,
    journal,
    version: VERSION,
    fixtures,
    seedOptions,
    baseUrl: linkBase,
    defaultAccount,
    documents,
  });
  const scenarios = new ScenarioEngine({ services, control, bundledDir: BUNDLED_SCENARIOS, seed: config.seed });

  const tls = config.tls ? await loadTls({ cert: config.tlsCert, key: config.tlsKey, host: config.host }) : undefined;
  // Documents render on a worker thread (started by the first document request), so none stalls the API.
  const renderer = createRenderer();
  const app = createApp({
    apiFaults: faultMiddleware(faults, {
      maxBodyBytes: config.maxBodyBytes,
      apiKeyHeader: config.apiKeyHeader,
      tenantOf: (marks) => requestTenant(services, marks),
    }),
    services,
    maxBodyBytes: config.maxBodyBytes,
    apiKeyHeader: config.apiKeyHeader,
    corsOrigins: config.corsOrigins,
    hosts: { host: config.host, publicUrl: config.publicUrl, allowedHosts: config.allowedHosts },
    publicUrl: config.publicUrl,
    documents: { documents, maxUploadBytes: config.maxUploadBytes, renderer },
    control: controlApiRoutes({ control, scenarios, maxBodyBytes: config.maxBodyBytes }),
    pages: pageRoutes({
      services,
      control,
      scenarios: () => scenarios.list(),
      loadScenario: (input) => ('name' in input ? scenarios.loadBundled(input.name) : scenarios.loadText(input.yaml)),
      connection: { ...defaultAccount, apiKeyHeader: config.apiKeyHeader },
      maxBodyBytes: config.maxBodyBytes,
    }),
    middleware: [
      journal.middleware({
        // The dashboard polls itself every few seconds: journaling it would push the requests it shows out.
        skip: (path) =>
          path === '/__sandbox/requests' ||
          path === '/openapi.json' ||
          path === '/favicon.ico' ||
          path === '/docs' ||
          path.startsWith('/docs/') ||
          path === '/__sandbox/ui' ||
          path.startsWith('/__sandbox/ui/'),
        // A snapshot is the whole store: far over the body cap, and costly to copy for nothing.
        skipBodies: (path) => path === '/__sandbox/state',
      }),
      requestEvents(bus, () => scenarios.wantsRequests()),
    ],
    onInternalError: (error) =>
      process.emitWarning(
        `esign-sandbox: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      ),
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
    control,
    scenarios,
    defaultAccount,
    loadedFromFile: loaded,
    journal,
    tls,
    async listen() {
      let port: number;
      if (tls) {
        tlsListener = await listenTls(app, config.host, config.port, tls, (error) =>
          listenError(error, config.host, config.port),
        );
        port = tlsListener.address().port;
      } else {
        server = await listenOn(app, config.host, config.port);
        port = (server.address() as AddressInfo).port;
      }
      baseUrl = `${tls ? 'https' : 'http'}://${urlHost(config.host)}:${port}`;
      listening?.();
      return baseUrl;
    },
    async close() {
      services.clocks.close();
      logOut.flush();
      await webhooks.close();
      await renderer.close();
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

/** Opening the data file (and its documents folder beside it): a failure is a sentence naming the file. */
async function openData<T>(file: string | undefined, open: () => Promise<T>): Promise<T> {
  try {
    return await open();
  } catch (error) {
    if (!file || error instanceof ConfigError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      throw new ConfigError(`The folder of the data file ${file} does not exist: create ${dirname(file)} first`);
    if (code === 'EISDIR')
      throw new ConfigError(
        `The data file ${file} is a folder: give a file path, such as ${join(file, 'sandbox.json')}`,
      );
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
      throw new ConfigError(`Not allowed to write the data file ${file} (${code}): pick a writable place for --data`);
    if (code === 'ENOTDIR')
      throw new ConfigError(`The data file ${file} cannot be made: part of its path is a file, not a folder`);
    throw new ConfigError(`Cannot open the data file ${file}: ${(error as Error).message}`);
  }
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
function defaultAccountInStore(services: Services, config: ResolvedConfig): SeedResult {
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
    const server = createAdaptorServer({ fetch: app.fetch, hostname: host, createServer: checkingHost(createServer) });
    server.on('clientError', answerClientError);
    server.on('checkExpectation', answerExpectation);
    const onError = (error: NodeJS.ErrnoException) => {
      server.close();
      reject(listenError(error, host, port));
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve(server);
    });
  });
}

function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  if (error.code === 'EADDRINUSE')
    return new ConfigError(`Port ${port} on ${host} is already in use; pick another with --port (0 picks a free one)`);
  if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND')
    return new ConfigError(`Cannot listen on host ${host}: ${error.message}`);
  if (error.code === 'EACCES') return new ConfigError(`Not allowed to listen on port ${port}: ${error.message}`);
  return error;
}

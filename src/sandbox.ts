/**
 * Wires one sandbox from its parts, each in its own file under wiring/: the state (wiring/state.ts: store, clock,
 * ids, bus, fixtures), the subsystems fed by events with the control operations and scenarios
 * (wiring/subsystems.ts), the HTTP app (wiring/app.ts) and the listener (wiring/listener.ts). The one place that
 * knows them all; nothing here is module-level, so a process can run many sandboxes side by side.
 */
import type { Hono } from 'hono';
import {
  BUNDLED_SCENARIOS,
  ConfigError,
  type ResolvedConfig,
  type SandboxOptions,
  resolveConfig,
} from './config/options.js';
import type { Control } from './control/control.js';
import type { WallClock } from './core/wall-time.js';
import type { Services } from './store/services.js';
import { inProcessEnv, networkError } from './http/connection.js';
import { type TlsMaterial, loadTls } from './http/tls.js';
import type { RequestJournal } from './journal/journal.js';
import { type ClosableRenderer, createRenderer } from './render/renderer.js';
import type { ScenarioEngine } from './scenarios/engine.js';
import { type StartScenario, readStartScenarios, startSettings, warnOfUnboundScenarios } from './scenarios/startup.js';
import { createSandboxApp } from './wiring/app.js';
import { type Listener, createListener, urlHost } from './wiring/listener.js';
import { type DefaultAccount, type TeamState, openState } from './wiring/state.js';
import { type Subsystems, createSubsystems } from './wiring/subsystems.js';
import { openTracer } from './wiring/tracing.js';

export type { DefaultAccount } from './wiring/state.js';

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
  /**
   * Answers one request in process, without a port (what `esign-sandbox/msw` calls): any host name is answered,
   * since the Host allow-list guards the port against web pages and none reaches this door; links in the answer
   * name the request's origin. An API fault's `connection` rejects it as Node's `fetch` rejects on a port: a
   * TypeError `fetch failed` whose `cause.code` is Node's (`malformed-chunk`: the body fails half-way).
   */
  fetch(request: Request): Promise<Response>;
  /** Listens on config.port (0 = a free port); resolves with the URL. */
  listen(): Promise<string>;
  /**
   * Served by another server at `url` instead of listening (a team replica's, docs/team-sandbox.md): links use it, and
   * the deliveries held until the sandbox is reachable go out.
   */
  serveAt(url: string): void;
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
  /** What draws the documents, instead of `createRenderer()` (render/renderer.ts): tests hold its jobs. */
  renderer?: ClosableRenderer;
  /** Team mode: the state in the team's database, on the leader's connection (docs/team-sandbox.md). */
  team?: TeamState;
  /**
   * What tells wall time to the journal and the delivery log, instead of the system's: a test of the readiness
   * report's Retry-After check moves it instead of sleeping (docs/readiness.md).
   */
  wall?: WallClock;
  /**
   * The process is the sandbox's own (the CLI): @hono/node-server may replace the global Request and
   * Response with its lighter ones, which answer faster. A library sandbox listens in its user's process and leaves
   * them alone: MSW, for one, tells a network error (`HttpResponse.error()`) by `instanceof Response`, and answered
   * status 0 instead once they were replaced.
   */
  ownProcess?: boolean;
}

export async function createSandbox(
  options: SandboxOptions = {},
  fallback: StartDefaults = { port: 0 },
): Promise<Sandbox> {
  const startScenarios = await readStartScenarios(options.scenarios ?? [], BUNDLED_SCENARIOS);
  const config = resolveConfig({ ...options, ...startSettings(options, startScenarios) }, fallback);
  const state = await openState(config, fallback.team);
  const { services, defaultAccount, loaded } = state;
  // Links in emails and on the sign page need the address: the configured one before listen(), the real one after.
  let baseUrl = `${config.tls ? 'https' : 'http'}://${urlHost(config.host)}:${config.port}`;
  // Links made outside a request (emails of a clock advance, the control API's records): --public-url, else the
  // listening address (domain/links.ts).
  const linkBase = () => config.publicUrl ?? baseUrl;
  const subsystems = createSubsystems(state, config, {
    linkBase,
    webhooksAfterListen: fallback.webhooksAfterListen === true,
    wall: fallback.wall,
    tracer: await openTracer(options.otlpEndpoint),
  });
  const { control, scenarios, journal } = subsystems;

  const tls = config.tls ? await loadTls({ cert: config.tlsCert, key: config.tlsKey, host: config.host }) : undefined;
  // Documents render on a worker thread (started by the first document request), so none stalls the API.
  const renderer = fallback.renderer ?? createRenderer();
  const app = createSandboxApp(config, state, subsystems, renderer);
  // What was in flight when a data file was last written (deliveries, retries, timers, clocks…) goes on from here.
  services.store.restoreKept();

  await activateAtStart(scenarios, startScenarios, loaded);
  warnOfUnboundScenarios(scenarios.activeSummaries(), services.store.platforms.all().length, config.host);

  const listener = createListener(app, config.host, config.port, tls, fallback.ownProcess === true);

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
    fetch: (request) => fetchInProcess(app, request),
    async listen() {
      const port = await listener.listen();
      baseUrl = `${tls ? 'https' : 'http'}://${urlHost(config.host)}:${port}`;
      subsystems.listening();
      return baseUrl;
    },
    serveAt(url) {
      baseUrl = url;
      subsystems.listening();
    },
    close: () => closeSandbox(services, subsystems, renderer, listener),
  };
}

/** One request answered without a port (Sandbox.fetch, what `esign-sandbox/msw` calls). */
async function fetchInProcess(app: Hono, request: Request): Promise<Response> {
  const env = inProcessEnv();
  const answer = await app.fetch(request, env);
  // An API fault broke the connection: no answer, as Node's fetch rejects on a port (docs/library.md).
  if (env.broken) throw networkError(env.broken);
  return answer;
}

/**
 * Stops a sandbox: first what starts work (timers, clocks), then what finishes it (the log written, deliveries
 * settled, the tracer's spans sent), then the renderer, the port and the store that the work used.
 */
async function closeSandbox(
  services: Services,
  subsystems: Subsystems,
  renderer: ClosableRenderer,
  listener: Listener,
): Promise<void> {
  // Timers still pending stay kept as they are (the data file has them for the next start).
  services.timers.stop();
  services.clocks.close();
  subsystems.flushLog();
  await subsystems.webhooks.close();
  await subsystems.tracer.close();
  await renderer.close();
  await listener.close();
  await services.store.close();
}

/** The --scenario list, loaded once the kept state is back (`loaded`: a data file was read). */
async function activateAtStart(scenarios: ScenarioEngine, list: StartScenario[], loaded: boolean): Promise<void> {
  for (const { scenario, source } of list) {
    // Kept in the data file as it is given again: it goes on where it stood (its timers, log and expectations).
    if (loaded && scenarios.activeAs(scenario)) continue;
    try {
      // A data file that was loaded already holds what the scenario's data created on the first run.
      await scenarios.activate(scenario, source, { atStart: true, skipData: loaded });
    } catch (error) {
      throw new ConfigError(`scenario ${scenario.name} could not be loaded: ${(error as Error).message}`);
    }
  }
}

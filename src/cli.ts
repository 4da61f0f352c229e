#!/usr/bin/env node
/**
 * esign-sandbox: parse flags (and ESIGN_SANDBOX_* variables), start a sandbox, say where it listens.
 */
import { HELP, parseCli } from './config/cli-args.js';
import { elapsedSince, monotonicNow } from './core/wall-time.js';
import { ConfigError, DEFAULT_PORT, type SandboxOptions, headerLabel } from './config/options.js';
import {
  type ProcessFiles,
  removeProcessFiles,
  watchParent,
  writePidFile,
  writeReadyFile,
} from './config/process-files.js';
import { type Sandbox, createSandbox } from './sandbox.js';
import { VERSION } from './config/version.js';
import type { ScenarioSummary } from './control/sandbox-control.js';

async function main(): Promise<void> {
  const started = monotonicNow();
  if (process.argv[2] === 'verify') return verify(process.argv.slice(3));
  if (process.argv[2] === 'mcp') return mcp(process.argv.slice(3));
  if (process.argv[2] === 'report') return report(process.argv.slice(3));
  const parsed = parseCli(process.argv.slice(2), process.env);
  if (parsed.help) return void console.log(HELP);
  if (parsed.version) return void console.log(VERSION);
  const { files } = parsed;
  try {
    const store = parsed.team?.store;
    if (store !== undefined) await runTeam(parsed.options, { store, advertiseUrl: parsed.team?.advertiseUrl }, files);
    else if (parsed.team) throw new ConfigError('--advertise-url is for team mode: give --store postgres://… too');
    else await run(parsed.options, files, started);
  } catch (error) {
    removeProcessFiles(files);
    throw error;
  }
}

/**
 * How the process stops: once, on SIGINT, SIGTERM or its npm parent leaving (or when the caller says so): `announce`
 * says it, `close` ends what runs (nothing when it has not started yet), then the process files go and it exits.
 * Set before anything starts, so a stop at any moment exits cleanly and flushes the data file.
 */
function stopOnSignals(
  files: ProcessFiles,
  announce: (signal: string) => void,
  close: () => Promise<void>,
): (signal: string, status?: number) => void {
  let stopping = false;
  const stop = (signal: string, status = 0) => {
    if (stopping) return;
    stopping = true;
    announce(signal);
    close().then(
      () => {
        removeProcessFiles(files);
        process.exit(status);
      },
      (error: unknown) => {
        console.error(`esign-sandbox: could not stop cleanly: ${String(error)}`);
        removeProcessFiles(files);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  writePidFile(files);
  watchParent(process.env, () => stop('npm exited'));
  return stop;
}

async function run(options: SandboxOptions, files: ProcessFiles, started: number): Promise<void> {
  // Handlers go in before anything starts, so a stop at any moment exits cleanly and flushes the data file.
  let sandbox: Sandbox | undefined;
  stopOnSignals(
    files,
    (signal) => {
      // With --log-format json every stdout line is JSON, this one too.
      if (options.log === 'json')
        console.log(JSON.stringify({ event: 'stopping', signal, ...(options.data ? { writing: options.data } : {}) }));
      else console.log(`\n${signal}: stopping${options.data ? ' and writing the data file' : ''}…`);
    },
    () => (sandbox ? sandbox.close() : Promise.resolve()),
  );

  // No webhook goes out before the sandbox listens: a receiver that calls back on the first one must find it.
  const running = await createSandbox(
    { ...options, log: options.log ?? 'pretty' },
    { port: DEFAULT_PORT, webhooksAfterListen: true, ownProcess: true },
  );
  sandbox = running;
  const url = await running.listen();
  console.log(running.config.log === 'json' ? listeningJson(running, url, started) : banner(running, url, started));
  writeReadyFile(files, url);
}

/**
 * With --log-format json: one JSON line a log collector (or a CI script) can read, where to reach the sandbox and how
 * to trust it.
 */
function listeningJson(running: Sandbox, url: string, started: number): string {
  const { config, defaultAccount: defaults, services, tls } = running;
  return JSON.stringify({
    event: 'listening',
    version: VERSION,
    url,
    apiKey: defaults.apiKey,
    clientKey: defaults.clientKey,
    apiKeyHeader: headerLabel(config.apiKeyHeader),
    clock: services.clocks.sandbox.state(),
    ...(tls ? { tlsCertFile: tls.certFile } : {}),
    scenarios: running.scenarios.activeSummaries().map((a) => a.name),
    readyMs: Math.round(elapsedSince(started)),
  });
}

/** What a person reads at start: where the sandbox answers, the credentials to use, its clock, data and scenarios. */
function banner(running: Sandbox, url: string, started: number): string {
  const { config, defaultAccount: defaults, services, tls } = running;
  const clock = services.clocks.sandbox.state();
  const lines = [
    `esign-sandbox ${VERSION}: Contract Signing Service sandbox`,
    `  API          ${url}/api`,
    `  Control API  ${url}/__sandbox`,
    ...(defaults.apiKey
      ? [`  API key      ${defaults.apiKey}`, `  Secret       ${defaults.secret}`]
      : ['  No platform in the fixtures: create one with POST /__sandbox/platforms']),
    ...(defaults.clientKey ? [`  Client key   ${defaults.clientKey} (${defaults.clientName})`] : []),
    `  Key header   ${headerLabel(config.apiKeyHeader)}`,
    `  Clock        ${clock.mode === 'frozen' ? `frozen at ${clock.now}` : `real, now ${clock.now}`}`,
    `  Data         ${config.data ? `${config.data} (${running.loadedFromFile ? 'loaded' : 'new, seeded from fixtures'})` : 'in memory'}`,
    ...running.scenarios.activeSummaries().map((a) => `  Scenario     ${scenarioLine(a, url)}`),
    `  Docs         ${url}/docs (OpenAPI: ${url}/openapi.json)`,
    ...(tls
      ? [
          `  TLS          ${tls.generated ? 'self-signed certificate' : 'certificate'} at ${tls.certFile}`,
          `               trust it with NODE_EXTRA_CA_CERTS=${tls.certFile} (or curl --cacert ${tls.certFile})`,
        ]
      : []),
    `  Request log  ${config.log === 'none' ? 'off (--quiet)' : 'on (--quiet turns it off)'}`,
    `Ready in ${Math.round(elapsedSince(started))} ms. Try: curl -s${tls ? ` --cacert ${tls.certFile}` : ''} ${url}/__sandbox/health`,
  ];
  return lines.join('\n');
}

/** A scenario and whom it plays for: one without a tenant key drives every tenant's signers (docs/ci.md). */
function scenarioLine(a: ScenarioSummary, url: string): string {
  const whom = a.apiKey !== undefined ? `tenant ${a.apiKey} only` : 'every tenant';
  return `${a.name} (${a.source}; plays for ${whom}): see ${url}/__sandbox/scenarios/${a.name}`;
}

const MCP_HELP = `esign-sandbox mcp [--url <url>]

An MCP server on stdin/stdout for coding agents (docs/mcp.md): every control operation of the sandbox at <url> as
a tool (create_tenant, advance_clock, act_as_recipient, list_deliveries, load_scenario, …).

  --url <url>   the sandbox to drive (default: $ESIGN_SANDBOX_URL, else http://127.0.0.1:4010)
  -h, --help    this text`;

/** `esign-sandbox mcp` (docs/mcp.md): loaded only when asked for; stdout carries the protocol and nothing else. */
async function mcp(argv: string[]): Promise<void> {
  let url = process.env.ESIGN_SANDBOX_URL || 'http://127.0.0.1:4010';
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-h' || arg === '--help') return void console.log(MCP_HELP);
    if (arg === '--url' && argv[i + 1] !== undefined) url = argv[++i]!;
    else if (arg.startsWith('--url=')) url = arg.slice('--url='.length);
    else {
      console.error(`esign-sandbox mcp: unknown argument ${JSON.stringify(arg)}\n\n${MCP_HELP}`);
      process.exitCode = 2;
      return;
    }
  }
  const [{ serveStdio }, { createControlClient }] = await Promise.all([
    import('./mcp/server.js'),
    import('./client/control-client.js'),
  ]);
  const client = createControlClient(url);
  await serveStdio((entry, request, apiKey) => client.send(entry.op, request, apiKey));
}

/**
 * A replica of a team sandbox (docs/team-sandbox.md): loaded only with --store, so the default start does not pay
 * for PostgreSQL's driver. One line per change of role; --ready-file once a leader answers through it.
 */
async function runTeam(
  options: SandboxOptions,
  team: { store: string; advertiseUrl?: string | undefined },
  files: ProcessFiles,
): Promise<void> {
  const { startReplica } = await import('./team-replica.js');
  const json = options.log === 'json';
  const say = (fields: Record<string, unknown>, line: string) =>
    console.log(json ? JSON.stringify({ ...fields, version: VERSION }) : line);
  let replica: Awaited<ReturnType<typeof startReplica>> | undefined;
  const stop = stopOnSignals(
    files,
    (signal) =>
      say({ event: 'stopping', signal }, `\n${signal}: stopping (a leader commits what is pending and hands over)…`),
    () => (replica ? replica.close() : Promise.resolve()),
  );
  replica = await startReplica(
    options,
    team,
    (e) => {
      if (e.event === 'listening')
        say(
          { event: 'listening', url: e.url, advertised: e.advertised, team: true },
          `esign-sandbox ${VERSION}: team replica listening on ${e.url} (other replicas reach it at ${e.advertised})`,
        );
      else if (e.event === 'leading')
        say(
          { event: 'leading', loadedMs: e.loadedMs, loaded: e.loaded },
          `  leading: ${e.loaded ? 'state read from the database' : 'new database, seeded from the fixtures'} in ${e.loadedMs} ms`,
        );
      else if (e.event === 'following') say({ event: 'following', leader: e.leader }, `  following ${e.leader}`);
      else if (e.event === 'stepped-down')
        say({ event: 'stepped-down', reason: e.reason }, `  stepped down: ${e.reason}`);
      else say({ event: 'waiting', reason: e.reason }, `  waiting: ${e.reason}`);
    },
    (error) => {
      console.error(`esign-sandbox: ${error instanceof ConfigError ? error.message : String(error)}`);
      stop('fatal', 2);
    },
  );
  await replica.ready;
  writeReadyFile(files, replica.url);
}

/**
 * `esign-sandbox verify` (docs/verify.md): loaded only when asked for, so the sandbox's start does not pay for it.
 * It compares the target with a sandbox of the library's own startSandbox, spoken to over HTTP.
 */
async function verify(argv: string[]): Promise<void> {
  const [{ runVerify }, { startSandbox }] = await Promise.all([import('./verify/command.js'), import('./index.js')]);
  const code = await runVerify(argv, process.env, {
    startLocal: () => startSandbox({ log: 'none' }),
    out: (text) => console.log(text),
    err: (text) => console.error(text),
  });
  process.exit(code);
}

/** `esign-sandbox report` (docs/readiness.md): loaded only when asked for, like verify. */
async function report(argv: string[]): Promise<void> {
  const { runReport } = await import('./report/command.js');
  const code = await runReport(argv, process.env, {
    out: (text) => console.log(text),
    err: (text) => console.error(text),
  });
  process.exitCode = code;
}

// Every failure to start is exit 2 with one line saying why (README "Exit status"); a stack trace of the minified
// bundle helps no one, and a script tells "could not start" from "stopped" by the status alone.
main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  console.error(`esign-sandbox: ${error instanceof ConfigError ? message : `could not start: ${message}`}`);
  process.exit(2);
});

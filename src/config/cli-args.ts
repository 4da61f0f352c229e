/** The CLI's flags and ESIGN_SANDBOX_* variables, turned into SandboxOptions. */
import { parseArgs } from 'node:util';
import { ConfigError, type SandboxOptions } from './options.js';
import type { ProcessFiles } from './process-files.js';
import { VERSION } from './version.js';

export const HELP = `esign-sandbox ${VERSION}
A local, stateful sandbox of the Contract Signing Service API.

Usage
  esign-sandbox [options]
  esign-sandbox verify --target <url> --api-key <key> --secret <secret> [options]
                            compare the sandbox with a real account (esign-sandbox verify --help)
  esign-sandbox mcp [--url <url>]
                            an MCP server on stdio for coding agents, driving the sandbox at <url>
                            (default $ESIGN_SANDBOX_URL or http://127.0.0.1:4010; docs/mcp.md)
  esign-sandbox report [--url <url>] [--tenant <apiKey>] [--junit <file>] [--markdown <file>]
                            is the integration ready to go live? (esign-sandbox report --help)

Options
  -p, --port <n>            Port to listen on; 0 picks a free one          (default 4010)
      --host <addr>         Interface to bind                              (default 127.0.0.1)
      --api-key <key>       API key of the default platform                (default from fixtures)
      --secret <secret>     Secret of the default platform                 (default from fixtures)
      --data <file>         Persist state to this JSON file                (default: in memory)
      --store <url>         Team mode: keep the state in PostgreSQL, postgres://user@host/db; every
                            replica given the same URL is one sandbox (docs/team-sandbox.md)
      --advertise-url <u>   Team mode: where the other replicas reach this one (default: the
                            listening address; with --host 0.0.0.0, the first outside IPv4 address)
      --fixtures <path>     Seed data: a YAML/JSON file or a folder of them (default: bundled fixtures/)
      --seed <n>            Seed for generated keys and data: same seed, same sandbox
      --clock <mode>        real (follows wall time) or frozen             (default real)
      --start <iso>         Sandbox time at start, e.g. 2026-01-05T09:00:00Z
      --max-body <size>     Largest request body, e.g. 10mb, 512kb         (default 10mb)
      --max-upload <size>   Largest PDF upload (upload_pdf), e.g. 15mb     (default 15mb)
      --api-key-header <h>  Header that carries the API key                (default X-Service-Key)
      --tls                 Serve HTTPS with a self-signed certificate made at start
                            (its path is printed: trust it with NODE_EXTRA_CA_CERTS)
      --tls-cert <file>     Serve HTTPS with your own certificate (PEM)    (with --tls-key)
      --tls-key <file>      The private key of --tls-cert (PEM)
      --log-format <f>      Request log on stdout: pretty or json          (default pretty)
  -q, --quiet               No request log
      --journal-limit <n>   Requests kept by GET /__sandbox/requests       (default 1000)
      --rate-limit <rate>   A quota per API key like a test mode, e.g. 10/min, 2/s, 500/h: past it
                            429 with Retry-After (docs/readiness.md)       (default: none)
      --scenario <path>     Load scenarios at start: a YAML file, a folder of them or a bundled name;
                            repeatable
      --public-url <url>    Origin of the document URLs and signing links handed out, e.g.
                            https://sandbox.example.test behind a proxy (default: the request's origin)
      --cors-origin <o>     Only this origin's pages may call /api from a browser, e.g.
                            http://localhost:3000; repeatable or comma-separated (default: any origin)
      --allowed-host <h>    Also answer requests for this host name, e.g. esign (a compose service);
                            repeatable or comma-separated; * answers any (see README "Security")
      --pid-file <file>     Write the process id here at start; removed at exit
      --ready-file <file>   Write the URL here once listening; removed at exit (docs/ci.md)
  -h, --help                Show this help
  -v, --version             Show the version

Every option can also be set as an environment variable: ESIGN_SANDBOX_PORT, ESIGN_SANDBOX_HOST,
ESIGN_SANDBOX_API_KEY, ESIGN_SANDBOX_SECRET, ESIGN_SANDBOX_DATA, ESIGN_SANDBOX_STORE, ESIGN_SANDBOX_ADVERTISE_URL,
ESIGN_SANDBOX_FIXTURES, ESIGN_SANDBOX_SEED,
ESIGN_SANDBOX_CLOCK, ESIGN_SANDBOX_START, ESIGN_SANDBOX_MAX_BODY, ESIGN_SANDBOX_MAX_UPLOAD,
ESIGN_SANDBOX_API_KEY_HEADER, ESIGN_SANDBOX_TLS (true/false), ESIGN_SANDBOX_TLS_CERT, ESIGN_SANDBOX_TLS_KEY, ESIGN_SANDBOX_LOG_FORMAT,
ESIGN_SANDBOX_QUIET (true/false), ESIGN_SANDBOX_JOURNAL_LIMIT, ESIGN_SANDBOX_RATE_LIMIT, ESIGN_SANDBOX_PUBLIC_URL,
ESIGN_SANDBOX_SCENARIO, ESIGN_SANDBOX_CORS_ORIGIN, ESIGN_SANDBOX_ALLOWED_HOST (these three: several separated by commas),
ESIGN_SANDBOX_PID_FILE, ESIGN_SANDBOX_READY_FILE. Flags win over variables.

Started by npm (npx, npm exec, npm start), the sandbox also stops when npm exits: kill $! stops it.
Exit status: 0 after SIGTERM/SIGINT (data file written), 2 when it cannot start (one line says why).

Examples
  esign-sandbox                              start on http://127.0.0.1:4010 with the demo data
  esign-sandbox --port 0 --clock frozen      a free port, time stands still until you move it
  esign-sandbox --data .sandbox.json         keep state across restarts
  esign-sandbox --tls --quiet                HTTPS with a fresh self-signed certificate, no request log
  esign-sandbox --scenario slow-signer       play out a bundled scenario, or --scenario my-scenario.yaml (docs/scenarios.md)

API under /api, control API (clock, reset, recipients, emails, webhooks) under /__sandbox.
OpenAPI document at /openapi.json, docs page at /docs. Docs: README.md in the package.`;

const FLAGS = {
  port: { type: 'string', short: 'p' },
  host: { type: 'string' },
  'api-key': { type: 'string' },
  secret: { type: 'string' },
  data: { type: 'string' },
  store: { type: 'string' },
  'advertise-url': { type: 'string' },
  fixtures: { type: 'string' },
  seed: { type: 'string' },
  clock: { type: 'string' },
  start: { type: 'string' },
  'max-body': { type: 'string' },
  'max-upload': { type: 'string' },
  'api-key-header': { type: 'string' },
  tls: { type: 'boolean' },
  'tls-cert': { type: 'string' },
  'tls-key': { type: 'string' },
  'log-format': { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
  'journal-limit': { type: 'string' },
  'rate-limit': { type: 'string' },
  scenario: { type: 'string', multiple: true },
  'public-url': { type: 'string' },
  'cors-origin': { type: 'string', multiple: true },
  'allowed-host': { type: 'string', multiple: true },
  'pid-file': { type: 'string' },
  'ready-file': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

type FlagName = keyof typeof FLAGS;

/** Every flag's long name, for the test that checks each one has an environment variable twin. */
export const FLAG_NAMES = Object.keys(FLAGS) as FlagName[];

export function envName(flag: string): string {
  return `ESIGN_SANDBOX_${flag.toUpperCase().replace(/-/g, '_')}`;
}

function wholeNumber(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value.trim())) throw new ConfigError(`--${name} takes a whole number (got "${value}")`);
  return Number(value);
}

export function parseCli(
  argv: string[],
  env: NodeJS.ProcessEnv,
): {
  help?: true;
  version?: true;
  options: SandboxOptions;
  files: ProcessFiles;
  /** Team mode (docs/team-sandbox.md): the state in PostgreSQL (`store`), this replica one of several. */
  team?: { store?: string | undefined; advertiseUrl?: string | undefined };
} {
  let values: FlagValues;
  try {
    ({ values } = parseArgs({ args: argv, options: FLAGS, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new ConfigError(
      `${(error as Error).message.replace(/\. To specify.*$/s, '')}\nRun esign-sandbox --help for the options.`,
    );
  }
  if (values.help) return { help: true, options: {}, files: {} };
  if (values.version) return { version: true, options: {}, files: {} };
  const read = flagReader(values, env);
  const options = sandboxOptions(read);
  const files: ProcessFiles = {};
  const pidFile = read.get('pid-file');
  const readyFile = read.get('ready-file');
  if (pidFile !== undefined) files.pidFile = pidFile;
  if (readyFile !== undefined) files.readyFile = readyFile;
  const store = read.get('store');
  const advertiseUrl = read.get('advertise-url');
  if (store !== undefined && options.data !== undefined) {
    // The container image sets ESIGN_SANDBOX_DATA; a replica given a store keeps its state there instead.
    if (typeof values.data === 'string')
      throw new ConfigError('--store and --data both say where the state lives: pick one');
    delete options.data;
  }
  const team = store !== undefined || advertiseUrl !== undefined ? { team: { store, advertiseUrl } } : {};
  return { options, files, ...team };
}

type FlagValues = Partial<Record<FlagName, string | boolean | string[]>>;

/** Each flag's value as given on the command line, else its environment variable's (envName). */
function flagReader(values: FlagValues, env: NodeJS.ProcessEnv) {
  return {
    values,
    get(name: FlagName): string | undefined {
      const flag = values[name];
      if (typeof flag === 'string') return flag;
      const fromEnv = env[envName(name)];
      return fromEnv === undefined || fromEnv === '' ? undefined : fromEnv;
    },
    flag(name: FlagName): boolean | undefined {
      if (values[name] === true) return true;
      const fromEnv = env[envName(name)];
      if (fromEnv === undefined || fromEnv === '') return undefined;
      if (/^(1|true|yes|on)$/i.test(fromEnv)) return true;
      if (/^(0|false|no|off)$/i.test(fromEnv)) return false;
      throw new ConfigError(`${envName(name)} takes true or false (got "${fromEnv}")`);
    },
    /** A repeatable flag, each value also a comma list; else its variable, a comma list. */
    list(name: FlagName): string[] | undefined {
      const flag = values[name];
      const items = (Array.isArray(flag) ? flag.join(',') : (env[envName(name)] ?? '')).split(',');
      const kept = items.map((s) => s.trim()).filter(Boolean);
      return kept.length ? kept : undefined;
    },
  };
}

/** The sandbox's options from the flags, each checked in turn (the first wrong one is the error); unset ones left out. */
function sandboxOptions({ values, get, flag, list }: ReturnType<typeof flagReader>): SandboxOptions {
  const clock = get('clock');
  if (clock !== undefined && clock !== 'real' && clock !== 'frozen')
    throw new ConfigError(`--clock takes "real" or "frozen" (got "${clock}")`);
  const options: SandboxOptions = {};
  const assign = <K extends keyof SandboxOptions>(key: K, value: SandboxOptions[K] | undefined) => {
    if (value !== undefined) options[key] = value;
  };
  assign('port', wholeNumber('port', get('port')));
  assign('host', get('host'));
  assign('apiKey', get('api-key'));
  assign('secret', get('secret'));
  assign('data', get('data'));
  assign('fixtures', get('fixtures'));
  assign('seed', wholeNumber('seed', get('seed')));
  assign('clock', clock as SandboxOptions['clock']);
  assign('start', get('start'));
  assign('maxBody', get('max-body'));
  assign('maxUpload', get('max-upload'));
  assign('apiKeyHeader', get('api-key-header'));
  if (flag('tls')) options.tls = true;
  assign('tlsCert', get('tls-cert'));
  assign('tlsKey', get('tls-key'));
  const format = get('log-format');
  if (format !== undefined && format !== 'pretty' && format !== 'json')
    throw new ConfigError(`--log-format takes "pretty" or "json" (got "${format}")`);
  // Left unset unless asked for: the CLI defaults to pretty, the library to none.
  if (flag('quiet')) options.log = 'none';
  else if (format !== undefined) options.log = format;
  assign('journalLimit', wholeNumber('journal-limit', get('journal-limit')));
  assign('rateLimit', get('rate-limit'));
  assign('publicUrl', get('public-url'));
  assign('scenarios', Array.isArray(values.scenario) ? values.scenario : list('scenario'));
  assign('corsOrigins', list('cors-origin'));
  assign('allowedHosts', list('allowed-host'));
  return options;
}

/** The flags of `esign-sandbox verify` and their ESIGN_SANDBOX_VERIFY_* twins (docs/verify.md). */
import { parseArgs } from 'node:util';
import { RESOURCES, type Resource } from './flows.js';

export const VERIFY_HELP = `esign-sandbox verify: compare the sandbox with a real Contract Signing Service account

Usage
  esign-sandbox verify --target <url> --api-key <key> --secret <secret> [options]

Runs documented probe flows (docs/verify.md) against the target and, with the same requests, against a fresh
sandbox started in this process, and compares the two answers step by step by shape, not by value: HTTP status,
code (type and value), message (exact text), the fields at every depth, each value's kind and a string's format
(SQL or ISO time, a key's length and alphabet, URL, email), array items by their shapes.

Options
      --target <url>      Base URL of the service to check, e.g. https://api.sendforsign.com
      --api-key <key>     Your platform's API key on the target
      --secret <secret>   Your platform's secret on the target
      --json <file>       Also write the result as JSON to this file
      --record <dir>      Write each flow's exchanges with the target to this folder as transcripts, with every
                          token, secret, API key, key and email replaced by a placeholder (<contractKey#1>):
                          safe to attach to an issue
      --only <list>       Only these flows, comma-separated, of: ${RESOURCES.slice(0, 5).join(', ')},
                          ${RESOURCES.slice(5).join(', ')} (all but recipient by default;
                          the platform token, the run's client and its client token are always made)
      --send              Also run the recipient flow, which makes the target EMAIL the --email address
      --email <address>   Where the recipient flow's emails go: your own address (plus-addressing works well,
                          e.g. you+esign-verify@example.com); needed by --send, refused without it
      --timeout <seconds> How long one step waits for the target's whole answer (default 30)
  -h, --help              Show this help

Safety
  - Everything happens inside one client the run creates and names "esign-sandbox verify <date time>". Afterwards
    it archives or deletes what it made there (contracts archived, templates and webhooks deleted) and says what
    it could not clean up: the service has no delete for clients, users or contracts.
  - No email goes to anyone by default: addresses the run invents are at example.com, webhooks have every event
    off. Only --send --email <address> runs the recipient flow, which sends a signing request to that address.
  - Credentials are read from the flags or the environment and sent only to --target's origin: a redirect to
    another origin ends the run (exit 2). They are never printed or written, in any encoding (as they are,
    URL-encoded, base64, in a Basic header): the output and the transcripts of --record hold placeholders.

Every option can also be set as an environment variable: ESIGN_SANDBOX_VERIFY_TARGET,
ESIGN_SANDBOX_VERIFY_API_KEY, ESIGN_SANDBOX_VERIFY_SECRET, ESIGN_SANDBOX_VERIFY_JSON, ESIGN_SANDBOX_VERIFY_RECORD,
ESIGN_SANDBOX_VERIFY_ONLY, ESIGN_SANDBOX_VERIFY_SEND (true/false), ESIGN_SANDBOX_VERIFY_EMAIL,
ESIGN_SANDBOX_VERIFY_TIMEOUT. Flags win.

Exit status: 0 when every step matched, 1 when a step drifted, 2 when the run could not go on (target down,
not the API, credentials refused, a redirect to another origin, no whole answer in time, a bad option), with one
sentence saying which.

Example
  esign-sandbox verify --target https://api.sendforsign.com --api-key "$KEY" --secret "$SECRET" \\
    --json verify.json --record transcripts/`;

const FLAGS = {
  target: { type: 'string' },
  'api-key': { type: 'string' },
  secret: { type: 'string' },
  json: { type: 'string' },
  record: { type: 'string' },
  only: { type: 'string' },
  send: { type: 'boolean' },
  email: { type: 'string' },
  timeout: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type FlagName = keyof typeof FLAGS;
export const VERIFY_FLAG_NAMES = Object.keys(FLAGS).filter((f) => f !== 'help') as FlagName[];

export function verifyEnvName(flag: string): string {
  return `ESIGN_SANDBOX_VERIFY_${flag.toUpperCase().replace(/-/g, '_')}`;
}

/** A bad option: exit 2 with this sentence. */
export class VerifyUsageError extends Error {}

export interface VerifyOptions {
  help?: true;
  target: string;
  apiKey: string;
  secret: string;
  json?: string;
  record?: string;
  only?: Set<Resource>;
  send: boolean;
  email?: string;
  /** How long one step waits for the target's whole answer, in milliseconds. */
  timeoutMs: number;
}

export function parseVerifyArgs(argv: string[], env: NodeJS.ProcessEnv): VerifyOptions {
  let values: Partial<Record<FlagName, string | boolean>>;
  try {
    ({ values } = parseArgs({ args: argv, options: FLAGS, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new VerifyUsageError(
      `${(error as Error).message.replace(/\. To specify.*$/s, '')}; see esign-sandbox verify --help.`,
    );
  }
  if (values.help) return { help: true, target: '', apiKey: '', secret: '', send: false, timeoutMs: 0 };
  const get = (name: FlagName): string | undefined => {
    const flag = values[name];
    if (typeof flag === 'string') return flag;
    const fromEnv = env[verifyEnvName(name)];
    return fromEnv === undefined || fromEnv === '' ? undefined : fromEnv;
  };
  const sendEnv = env[verifyEnvName('send')] ?? '';
  if (sendEnv && !/^(1|true|yes|on|0|false|no|off)$/i.test(sendEnv))
    throw new VerifyUsageError(`${verifyEnvName('send')} takes true or false (got "${sendEnv}").`);
  const send = values.send === true || /^(1|true|yes|on)$/i.test(sendEnv);
  const [target, apiKey, secret, email] = [get('target'), get('api-key'), get('secret'), get('email')];
  const missing = [!target && '--target', !apiKey && '--api-key', !secret && '--secret'].filter(Boolean);
  if (missing.length)
    throw new VerifyUsageError(`verify needs ${missing.join(', ')} (or their environment variables); see --help.`);
  if (!/^https?:\/\/[^/]+/.test(target!))
    throw new VerifyUsageError(`--target takes a base URL such as https://api.sendforsign.com (got "${target}").`);
  if (send && !email)
    throw new VerifyUsageError('--send needs --email <address>: the recipient flow emails that address and no other.');
  if (email && !send)
    throw new VerifyUsageError('--email is used only with --send, which runs the recipient flow that emails it.');
  if (email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    throw new VerifyUsageError(`--email takes an email address (got "${email}").`);
  const timeoutMs = timeoutOf(get('timeout') ?? '30');
  const options: VerifyOptions = {
    // Given as …/api or …/api/, the base is what comes before.
    target: target!.replace(/\/+$/, '').replace(/\/api$/, ''),
    apiKey: apiKey!,
    secret: secret!,
    send,
    timeoutMs,
  };
  const only = get('only');
  if (only !== undefined) options.only = onlyResources(only, send);
  for (const [name, key] of [
    ['json', 'json'],
    ['record', 'record'],
  ] as const) {
    const value = get(name);
    if (value !== undefined) options[key] = value;
  }
  if (email) options.email = email;
  return options;
}

/** `--timeout` in milliseconds: seconds above 0, at most an hour. */
function timeoutOf(seconds: string): number {
  if (!/^\d+(\.\d+)?$/.test(seconds) || Number(seconds) <= 0 || Number(seconds) > 3600)
    throw new VerifyUsageError(`--timeout takes a number of seconds above 0, at most 3600 (got "${seconds}").`);
  return Number(seconds) * 1000;
}

/** `--only`: a comma list of RESOURCES; the recipient flow only with --send. */
function onlyResources(only: string, send: boolean): Set<Resource> {
  const names = only
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !(RESOURCES as readonly string[]).includes(n));
  if (unknown.length || !names.length)
    throw new VerifyUsageError(`--only takes some of ${RESOURCES.join(', ')} (got "${only}").`);
  if (names.includes('recipient') && !send)
    throw new VerifyUsageError('--only recipient needs --send --email <address>: that flow emails the recipient.');
  return new Set(names as Resource[]);
}

/**
 * One `verify` run: the probe steps against the target and a fresh sandbox side by side, each answer compared by
 * shape, then the clean-up of what the run made on the target (docs/verify.md). A user of the HTTP API only: it
 * sends what any client sends and reads what it answers.
 */
import { wallNow } from '../core/wall-time.js';
import { type Auth, BAD_TOKEN, type Made, type Step, type Vars, cleanupStep } from './flows.js';
import { Redactor } from './redact.js';
import { type Answer, type Drift, compareAnswers } from './shape.js';
import { type Exchange, TRANSCRIPT_FORMAT, TRANSCRIPT_VERSION, type Transcript, parseJson } from './transcript.js';

/** The run cannot go on (target down, not the API, credentials refused): exit 2 with this sentence. */
export class CannotRun extends Error {}

export interface SideConfig {
  url: string;
  apiKey: string;
  secret: string;
}

export interface StepResult {
  name: string;
  path: string;
  action: string;
  result: 'same' | 'drift' | 'skipped';
  drifts: Drift[];
  /** Why a step was skipped. */
  note?: string;
}

export interface RunReport {
  target: string;
  clientName: string;
  steps: StepResult[];
  /** What the clean-up did, and what it left on the target (with why). */
  cleaned: string[];
  left: string[];
  /** The target's exchanges of each flow, redacted, when recording. */
  transcripts: Transcript[];
}

interface Side {
  config: SideConfig;
  vars: Vars;
  made: { kind: Made; key: string }[];
  exchanges: { step: Step; exchange: Exchange }[];
}

const HEADER = 'X-Sendforsign-Key';

function headersFor(auth: Auth, vars: Vars): Record<string, string> {
  const bearer = (token: string | undefined) => ({ Authorization: `Bearer ${token}` });
  const by: Record<Auth, Record<string, string>> = {
    none: {},
    platform: bearer(vars.platformToken),
    client: bearer(vars.clientToken),
    apiKey: { [HEADER]: vars.apiKey ?? '' },
    badToken: bearer(BAD_TOKEN),
    revokedToken: bearer(vars.revokedToken),
  };
  return { 'Content-Type': 'application/json', ...by[auth] };
}

/** Same-origin redirects (307, 308: method and body kept) followed before the run gives up. */
const MAX_REDIRECTS = 5;

async function send(side: Side, step: Step, timeoutMs: number): Promise<Exchange & { contentType: string }> {
  const path = `/api/${step.entity}`;
  const headers = headersFor(step.auth, side.vars);
  const body = step.body(side.vars);
  const signal = AbortSignal.timeout(timeoutMs);
  const seconds = `${timeoutMs / 1000} s`;
  let url = side.config.url + path;
  let response: Response | undefined;
  let received = 0;
  let text = '';
  try {
    for (let hop = 0; ; hop++) {
      // Never followed by fetch: a redirect would carry the credentials wherever it points (docs/verify.md).
      response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal, redirect: 'manual' });
      const next = redirectOf(side.config.url, step, url, response);
      if (next === undefined) break;
      await response.body?.cancel();
      if (hop === MAX_REDIRECTS)
        throw new CannotRun(`${side.config.url} redirected ${step.name} more than ${MAX_REDIRECTS} times.`);
      url = next;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of response.body ?? []) {
      chunks.push(Buffer.from(chunk));
      received += chunk.byteLength;
    }
    text = Buffer.concat(chunks).toString('utf8');
  } catch (error) {
    if (error instanceof CannotRun) throw error;
    if (signal.aborted) {
      const where = `${step.name}, POST ${new URL(url).pathname} at ${new URL(url).origin}`;
      throw new CannotRun(
        response === undefined
          ? `timed out after ${seconds} waiting for the answer to ${where} (no status line or headers came); raise --timeout if it is only slow.`
          : `timed out after ${seconds} waiting for the body of ${where} (HTTP ${response.status}, ${received} bytes came${lengthOf(response)}); raise --timeout if it is only slow.`,
      );
    }
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (error as Error).message;
    throw new CannotRun(`${side.config.url} did not answer ${step.name} (${why}).`);
  }
  return {
    name: step.name,
    request: { method: 'POST', path, headers, body },
    response: { status: response.status, body: parseJson(text) },
    contentType: response.headers.get('content-type') ?? 'no content type',
  };
}

/** ", of N declared" when the answer declared its length. */
function lengthOf(response: Response): string {
  const length = response.headers.get('content-length');
  return length === null ? '' : ` of ${length} declared`;
}

/**
 * Where a redirect points, when the answer is one the run follows: a 307 or 308 within the target's origin. A
 * redirect to another origin ends the run, naming both, before anything is sent there; any other redirect too.
 */
function redirectOf(base: string, step: Step, from: string, response: Response): string | undefined {
  if (response.status < 300 || response.status > 399) return undefined;
  const location = response.headers.get('location');
  const origin = new URL(base).origin;
  const to = location === null ? undefined : URL.canParse(location, from) ? new URL(location, from) : undefined;
  if (to === undefined)
    throw new CannotRun(`${origin} answered ${step.name} with HTTP ${response.status} but no usable Location.`);
  if (to.origin !== origin)
    throw new CannotRun(
      `${origin} redirected ${step.name} (HTTP ${response.status}) to another origin, ${to.origin}: verify sends credentials to the target's origin only; if that is the API, give it as --target.`,
    );
  if (response.status !== 307 && response.status !== 308)
    throw new CannotRun(
      `${origin} answered ${step.name} with HTTP ${response.status} to ${to.pathname}: a POST to the API is not redirected; check --target.`,
    );
  return to.href;
}

/** The first answer of the target says whether it is the API at all and takes the credentials. */
function checkFirst(url: string, exchange: Exchange & { contentType: string }): void {
  const { status, body } = exchange.response;
  if (body === undefined || typeof body !== 'object')
    throw new CannotRun(
      `${url} answered ${exchange.contentType.split(';')[0]}, not JSON: it is not the Contract Signing Service API (give its base URL, e.g. https://api.sendforsign.com).`,
    );
  if (status === 401 || status === 403)
    throw new CannotRun(
      `${url} refused the credentials (HTTP ${status}: ${JSON.stringify((body as { message?: unknown }).message ?? '')}): check --api-key and --secret.`,
    );
  if (status >= 300) throw new CannotRun(`${url} answered HTTP ${status} to a platform token request: is it the API?`);
}

const ok = (status: number) => status >= 200 && status < 300;

/** What a step's answer gives for later steps; the target's tokens are secrets from then on (`secrets`). */
function keep(side: Side, step: Step, exchange: Exchange, secrets?: Redactor): void {
  const body = exchange.response.body;
  if (!ok(exchange.response.status) || !body || typeof body !== 'object') return;
  for (const [name, value] of Object.entries(step.keep?.(body) ?? {}))
    if (typeof value === 'string' && value) {
      side.vars[name] = value;
      if (/token/i.test(name)) secrets?.registerSecret(value, name);
    }
  const key = (ref: { key: string } | undefined) => (ref ? side.vars[ref.key] : undefined);
  const made = key(step.makes);
  if (step.makes && made) side.made.push({ kind: step.makes.kind, key: made });
  const removed = key(step.removes);
  if (step.removes && removed) side.made = side.made.filter((m) => m.key !== removed);
}

export interface RunOptions {
  target: SideConfig;
  sandbox: SideConfig;
  steps: Step[];
  clientName: string;
  /** The address recipient flows send to (only with --send). */
  email?: string;
  record: boolean;
  timeoutMs?: number;
  /**
   * Everything secret the run knows (the target's credentials, then each token it hands out): what the run prints
   * or writes goes through it (command.ts).
   */
  secrets: Redactor;
}

/** A redactor of the target's credentials, in every form (redact.ts); the run adds the tokens it is given. */
export function secretsOf(target: SideConfig, email?: string): Redactor {
  const secrets = new Redactor(false);
  secrets.registerSecret(`${target.apiKey}:${target.secret}`, 'basic');
  secrets.registerSecret(target.apiKey, 'apiKey');
  secrets.registerSecret(target.secret, 'secret');
  if (email) secrets.registerSecret(email, 'email');
  return secrets;
}

export async function runProbes(options: RunOptions): Promise<RunReport> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const sideOf = (config: SideConfig): Side => ({
    config,
    vars: {
      apiKey: config.apiKey,
      secret: config.secret,
      runName: options.clientName,
      // A reserved domain (RFC 2606): nothing sent there reaches anyone.
      probeEmail: 'esign-sandbox-verify@example.com',
      ...(options.email ? { email: options.email } : {}),
    },
    made: [],
    exchanges: [],
  });
  const target = sideOf(options.target);
  const sandbox = sideOf(options.sandbox);
  const report: RunReport = {
    target: options.target.url,
    clientName: options.clientName,
    steps: [],
    cleaned: [],
    left: [],
    transcripts: [],
  };
  const run = async (step: Step) => {
    const missing = (side: Side) => step.needs.filter((name) => !side.vars[name]);
    const lacking = [...new Set([...missing(target), ...missing(sandbox)])];
    const base = { name: step.name, path: `/api/${step.entity}`, action: step.action };
    if (lacking.length) {
      const note = `needs ${lacking.join(', ')}, which an earlier step did not give`;
      report.steps.push({ ...base, result: 'skipped', drifts: [], note });
      return;
    }
    const [fromTarget, fromSandbox] = await Promise.all([
      send(target, step, timeoutMs),
      send(sandbox, step, timeoutMs),
    ]);
    if (report.steps.length === 0) checkFirst(options.target.url, fromTarget);
    const { contentType: _type, ...exchange } = fromTarget;
    target.exchanges.push({ step, exchange });
    keep(target, step, fromTarget, options.secrets);
    keep(sandbox, step, fromSandbox);
    const drifts = compareAnswers(fromSandbox.response as Answer, fromTarget.response as Answer);
    report.steps.push({ ...base, result: drifts.length ? 'drift' : 'same', drifts });
  };
  try {
    for (const step of options.steps.filter((s) => !s.last)) await run(step);
  } finally {
    await cleanUp(target, report, timeoutMs);
  }
  for (const step of options.steps.filter((s) => s.last)) await run(step);
  if (options.record) report.transcripts = transcripts(target, options);
  return report;
}

/** Archives or deletes what the run made on the target; says what stays and why. */
async function cleanUp(target: Side, report: RunReport, timeoutMs: number): Promise<void> {
  for (const { kind, key } of target.made) {
    const step = cleanupStep(kind, key);
    try {
      const { response } = await send(target, step, timeoutMs);
      const message = (response.body as { message?: unknown } | undefined)?.message;
      if (ok(response.status)) report.cleaned.push(`${kind} ${key}: ${step.action}d`);
      else
        report.left.push(`${kind} ${key}: ${step.action} answered HTTP ${response.status} ${JSON.stringify(message)}`);
    } catch (error) {
      report.left.push(`${kind} ${key}: ${step.action} failed (${(error as Error).message})`);
    }
  }
  if (report.cleaned.some((c) => c.startsWith('contract')))
    report.left.push('archived contracts stay archived: the service has no contract delete');
  if (target.vars.clientKey)
    report.left.push(
      `the client "${report.clientName}" (${target.vars.clientKey}) and its users: the service has no client or user delete`,
    );
}

/** One transcript per flow, each opening with the set-up exchanges so that it replays alone. */
function transcripts(target: Side, options: RunOptions): Transcript[] {
  const redactor = new Redactor();
  redactor.allow(BAD_TOKEN);
  redactor.registerSecret(`${options.target.apiKey}:${options.target.secret}`, 'basic');
  redactor.registerSecret(options.target.apiKey, 'apiKey');
  redactor.registerSecret(options.target.secret, 'secret');
  if (options.email) redactor.registerSecret(options.email, 'email');
  for (const { exchange } of target.exchanges) redactor.collect(exchange);
  const setup = target.exchanges.filter((e) =>
    ['token create (platform)', 'client create', 'token create (client)'].includes(e.step.name),
  );
  const flows = [...new Set(target.exchanges.map((e) => e.step.resource))];
  const source = `recorded: esign-sandbox verify against ${new URL(options.target.url).host}, ${new Date(wallNow()).toISOString().slice(0, 10)}`;
  return flows.map((flow) => ({
    format: TRANSCRIPT_FORMAT,
    version: TRANSCRIPT_VERSION,
    source,
    flow,
    credentials: { apiKey: redactor.text(options.target.apiKey), secret: redactor.text(options.target.secret) },
    placeholders: redactor.shapes,
    exchanges: [...new Set([...setup, ...target.exchanges.filter((e) => e.step.resource === flow)])].map((e) =>
      redactor.redact(e.exchange),
    ),
  }));
}

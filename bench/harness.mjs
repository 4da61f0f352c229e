/**
 * The harness of npm run bench (bench/run.mjs): sizes, the servers it starts and stops, the requests it times,
 * and the rows of the table. See docs/benchmarks.md.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { freePort } from '../scripts/free-port.mjs';
import autocannon from 'autocannon';
import { postRequest, repeat, timeEach } from './keep-alive.mjs';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const CLI = join(ROOT, 'dist', 'cli.js');
export const BARE = join(ROOT, 'bench', 'bare-hono.mjs');
export const QUICK = process.env.BENCH_QUICK === '1';
export const SIZES = QUICK
  ? { starts: 3, createSeconds: 2, createRounds: 1, chunk: 1000, chunks: 4, timers: 1000, events: 100 }
  : { starts: 15, createSeconds: 5, createRounds: 3, chunk: 10_000, chunks: 10, timers: 10_000, events: 1000 };
/** Lists per size for the list p99. */
export const LISTS = QUICK ? 20 : 100;
/** Creates before the chunked runs, so the first chunk does not measure the JIT compiling the handlers (see warm()). */
export const WARMUP = QUICK ? 1000 : 10_000;
export const SETTLE = QUICK ? 500 : 2000;
export const DEMO = { apiKey: 'sandboxApiKey', secret: 'sandboxSecret', clientKey: 'demoClient' };
export const CREATE_BODY = JSON.stringify({
  data: { action: 'create', contract: { name: 'Bench agreement', value: '<p>The parties agree to the terms.</p>' } },
});
export const LIST_BODY = JSON.stringify({ data: { action: 'list' } });

export const rows = [];
export const work = mkdtempSync(join(tmpdir(), 'esign-bench-'));
// Removed however the process ends (a step that throws, a bench file run alone), not only at the end of run.mjs.
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
export const children = new Set();

export function row(figure, ours, baseline, unit, target, verdict, note) {
  const ratio = typeof ours === 'number' && typeof baseline === 'number' && baseline > 0 ? ours / baseline : undefined;
  const r = { figure, ours, baseline, unit, ratio, target, verdict, ...(note ? { note } : {}) };
  rows.push(r);
  console.log(
    `  ${figure}: ${fmt(ours)} ${unit}${baseline !== undefined ? ` (baseline ${fmt(baseline)})` : ''}  ${verdict}`,
  );
  return r;
}

export function fmt(v) {
  if (typeof v !== 'number') return v ?? '—';
  if (Math.abs(v) >= 100) return String(Math.round(v));
  if (Math.abs(v) >= 10) return v.toFixed(1);
  return v.toFixed(2);
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export { freePort };

export function launch(command, args, options = {}) {
  // Own process group, so stopping npx also stops the node it started.
  const child = spawn(command, args, {
    cwd: options.cwd ?? ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
    detached: true,
  });
  let output = '';
  // Read in full (a request log is read as a terminal would), kept only up to 64 kB (for error messages).
  const keep = (d) => {
    if (output.length < 65_536) output += d;
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  child.output = () => output;
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export async function stop(child, signal = 'SIGTERM') {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  try {
    process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
  await exited;
}

/** Polls the health route as fast as the loop allows; resolves when it answers 200. */
export async function waitHealthy(port, child, timeoutMs = 20_000) {
  const deadline = performance.now() + timeoutMs;
  const url = `http://127.0.0.1:${port}/__sandbox/health`;
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early: ${child.output()}`);
    try {
      const res = await fetch(url);
      if (res.status === 200) {
        await res.arrayBuffer();
        return;
      }
    } catch {
      /* not listening yet */
    }
    await sleep(1);
  }
  throw new Error(`no healthy answer on ${url} within ${timeoutMs} ms: ${child.output()}`);
}

/** `cli`: another build's dist/cli.js (the previous release's, bench/previous-build.mjs) instead of this one's. */
export async function startServer(kind, extra = [], { log = false, cli = CLI } = {}) {
  const port = await freePort();
  // --quiet unless `log`: with the request log on (the CLI's default) each request also prints a line to a pipe
  // this process reads, on the same two cores as the load generator.
  const child =
    kind === 'bare'
      ? launch(process.execPath, [BARE, String(port)])
      : launch(process.execPath, [cli, '--port', String(port), ...(log ? [] : ['--quiet']), ...extra]);
  await waitHealthy(port, child);
  return { child, port, url: `http://127.0.0.1:${port}` };
}

export function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
  return kb / 1024;
}

export async function json(url, body, headers = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const out = await res.json();
  if (res.status >= 300) throw new Error(`${url}: ${res.status} ${JSON.stringify(out)}`);
  return out;
}

/** A client token for a second client of the demo platform (created here). */
export async function otherClientToken(base) {
  const platform = await json(`${base}/api/token`, {
    data: { action: 'create', apiKey: DEMO.apiKey, secret: DEMO.secret },
  });
  const auth = { authorization: `Bearer ${platform.access_token}` };
  const created = await json(
    `${base}/api/client`,
    { data: { action: 'create', client: { fullname: 'Warm-up client' } } },
    auth,
  );
  const client = await json(`${base}/api/token`, { action: 'create', clientKey: created.client.clientKey }, auth);
  return client.access_token;
}

export async function clientToken(base) {
  const platform = await json(`${base}/api/token`, {
    data: { action: 'create', apiKey: DEMO.apiKey, secret: DEMO.secret },
  });
  const client = await json(
    `${base}/api/token`,
    { action: 'create', clientKey: DEMO.clientKey },
    { authorization: `Bearer ${platform.access_token}` },
  );
  return client.access_token;
}

/** One autocannon run of `seconds` (the create figure: long enough that starting autocannon does not count). */
export function cannon(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ method: 'POST', connections: 10, ...opts }, (error, result) => {
      if (error) return reject(error);
      if (result.non2xx > 0 || result.errors > 0)
        reject(new Error(`${opts.url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`));
      else resolve({ rps: result['2xx'] / result.duration, p99: result.latency.p99, p50: result.latency.p50 });
    });
  });
}

// The bare server only checks that a bearer token came along; it gets one so both answer the same request.
export const headersFor = (token) => ({
  'content-type': 'application/json',
  authorization: `Bearer ${token ?? 'bare'}`,
});

export async function createLoad(base, token, seconds) {
  await cannon({ url: `${base}/api/contract`, headers: headersFor(token), body: CREATE_BODY, duration: 1 });
  return cannon({ url: `${base}/api/contract`, headers: headersFor(token), body: CREATE_BODY, duration: seconds });
}

/** `amount` creates over 10 keep-alive connections (bench/keep-alive.mjs: no start cost to measure in a short run). */
export async function createAmount(base, token, amount) {
  return repeat(`${base}/api/contract`, postRequest(`${base}/api/contract`, headersFor(token), CREATE_BODY), amount);
}

/** p50, p90 and max of a list run, for the notes. */
export const spread = (r) => `${LISTS} lists: p50 ${fmt(r.p50)} ms, p90 ${fmt(r.p90)} ms, max ${fmt(r.max)} ms`;

/** LISTS lists one after the other on one keep-alive connection, each timed from its write to its last byte. */
export async function listLatency(base, token) {
  const times = await timeEach(
    `${base}/api/contract`,
    postRequest(`${base}/api/contract`, headersFor(token), LIST_BODY),
    LISTS,
  );
  const at = (q) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)];
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: times.at(-1) };
}

/**
 * A contract of `sections` sections (a heading, `sentences` sentences with bold and italic, a list, a table each):
 * the ordinary document the download figures grow until the PDF has the pages they want.
 */
export function agreementHtml(sections, sentences = 4) {
  const section = (i) =>
    `<h2>Section ${i}</h2>` +
    '<p>The parties agree to the terms set out in this section, which <b>binds</b> them and their <i>successors</i> alike. '.repeat(
      sentences,
    ) +
    '</p>' +
    `<ul><li>Obligation ${i}.1</li><li>Obligation ${i}.2</li></ul><table><tr><th>Item</th><th>Amount</th></tr><tr><td>Fee ${i}</td><td>${i * 100} EUR</td></tr></table>`;
  return `<h1>Master services agreement</h1>${Array.from({ length: sections }, (_, i) => section(i + 1)).join('')}`;
}

/** Runs `work` and answers how long it took and the longest stall of this thread meanwhile (ms). */
export async function timedStall(work) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  let late = 0;
  let expected = performance.now() + 10;
  const ticker = setInterval(() => {
    const now = performance.now();
    late = Math.max(late, now - expected);
    expected = now + 10;
  }, 10);
  histogram.enable();
  const t0 = performance.now();
  const status = await work();
  const ms = performance.now() - t0;
  // One more turn, so a stall at the very end is seen by the timer too.
  await new Promise((resolve) => setTimeout(resolve, 15));
  histogram.disable();
  clearInterval(ticker);
  return { ms, status, stall: Math.max(histogram.max / 1e6 - 10, late, 0) };
}

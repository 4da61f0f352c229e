/**
 * npm run bench: measures esign-sandbox (the compiled dist/) next to a bare Hono server doing the same JSON
 * work in the same run, so the ratios hold on a noisy machine. Prints a table (figure, ours, baseline, ratio,
 * target, verdict) and writes bench/results/latest.json. See docs/benchmarks.md.
 *
 * Environment: BENCH_QUICK=1 shrinks every figure (a smoke run of the harness, not a measurement).
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { postRequest, repeat, timeEach } from './keep-alive.mjs';
import { documentFigures } from './documents.mjs';
import { installSizeFigures } from './install-size.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const BARE = join(ROOT, 'bench', 'bare-hono.mjs');
const QUICK = process.env.BENCH_QUICK === '1';
const SIZES = QUICK
  ? { starts: 3, createSeconds: 2, createRounds: 1, chunk: 1000, chunks: 4, timers: 1000, events: 100 }
  : { starts: 15, createSeconds: 5, createRounds: 3, chunk: 10_000, chunks: 10, timers: 10_000, events: 1000 };
/** Lists per size for the list p99. */
const LISTS = QUICK ? 20 : 100;
/** Creates before the chunked runs, so the first chunk does not measure the JIT compiling the handlers (see warm()). */
const WARMUP = QUICK ? 1000 : 10_000;
const SETTLE = QUICK ? 500 : 2000;
const DEMO = { apiKey: 'sandboxApiKey', secret: 'sandboxSecret', clientKey: 'demoClient' };
const CREATE_BODY = JSON.stringify({
  data: { action: 'create', contract: { name: 'Bench agreement', value: '<p>The parties agree to the terms.</p>' } },
});
const LIST_BODY = JSON.stringify({ data: { action: 'list' } });

const rows = [];
const started = performance.now();
const work = mkdtempSync(join(tmpdir(), 'esign-bench-'));
const children = new Set();

function row(figure, ours, baseline, unit, target, verdict, note) {
  const ratio = typeof ours === 'number' && typeof baseline === 'number' && baseline > 0 ? ours / baseline : undefined;
  const r = { figure, ours, baseline, unit, ratio, target, verdict, ...(note ? { note } : {}) };
  rows.push(r);
  console.log(
    `  ${figure}: ${fmt(ours)} ${unit}${baseline !== undefined ? ` (baseline ${fmt(baseline)})` : ''}  ${verdict}`,
  );
  return r;
}

function fmt(v) {
  if (typeof v !== 'number') return v ?? '—';
  if (Math.abs(v) >= 100) return String(Math.round(v));
  if (Math.abs(v) >= 10) return v.toFixed(1);
  return v.toFixed(2);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createNetServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function launch(command, args, options = {}) {
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

async function stop(child, signal = 'SIGTERM') {
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
async function waitHealthy(port, child, timeoutMs = 20_000) {
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

async function startServer(kind, extra = [], { log = false } = {}) {
  const port = await freePort();
  // --quiet unless `log`: with the request log on (the CLI's default) each request also prints a line to a pipe
  // this process reads, on the same two cores as the load generator.
  const child =
    kind === 'bare'
      ? launch(process.execPath, [BARE, String(port)])
      : launch(process.execPath, [CLI, '--port', String(port), ...(log ? [] : ['--quiet']), ...extra]);
  await waitHealthy(port, child);
  return { child, port, url: `http://127.0.0.1:${port}` };
}

function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
  return kb / 1024;
}

async function json(url, body, headers = {}) {
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
async function otherClientToken(base) {
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

async function clientToken(base) {
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
function cannon(opts) {
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
const headersFor = (token) => ({ 'content-type': 'application/json', authorization: `Bearer ${token ?? 'bare'}` });

async function createLoad(base, token, seconds) {
  await cannon({ url: `${base}/api/contract`, headers: headersFor(token), body: CREATE_BODY, duration: 1 });
  return cannon({ url: `${base}/api/contract`, headers: headersFor(token), body: CREATE_BODY, duration: seconds });
}

/** `amount` creates over 10 keep-alive connections (bench/keep-alive.mjs: no start cost to measure in a short run). */
async function createAmount(base, token, amount) {
  return repeat(`${base}/api/contract`, postRequest(`${base}/api/contract`, headersFor(token), CREATE_BODY), amount);
}

/** p50, p90 and max of a list run, for the notes. */
const spread = (r) => `${LISTS} lists: p50 ${fmt(r.p50)} ms, p90 ${fmt(r.p90)} ms, max ${fmt(r.max)} ms`;

/** LISTS lists one after the other on one keep-alive connection, each timed from its write to its last byte. */
async function listLatency(base, token) {
  const times = await timeEach(
    `${base}/api/contract`,
    postRequest(`${base}/api/contract`, headersFor(token), LIST_BODY),
    LISTS,
  );
  const at = (q) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)];
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: times.at(-1) };
}

// ---------------------------------------------------------------------------------------------------------

async function benchStartup() {
  console.log('Start to first healthy answer');
  const ours = [];
  const bare = [];
  for (let i = 0; i < SIZES.starts; i++) {
    for (const kind of ['ours', 'bare']) {
      const port = await freePort();
      const t0 = performance.now();
      const child =
        kind === 'bare'
          ? launch(process.execPath, [BARE, String(port)])
          : launch(process.execPath, [CLI, '--port', String(port)]);
      await waitHealthy(port, child);
      (kind === 'bare' ? bare : ours).push(performance.now() - t0);
      await stop(child);
    }
  }
  const o = median(ours);
  const b = median(bare);
  row('start → first healthy answer (median)', o, b, 'ms', '≤ 1.3× bare Hono', o / b <= 1.3 ? 'met' : 'MISSED');

  // npx overhead: a folder where esign-sandbox is installed (linked), started the way users start it. npm marks
  // a package's bin executable when it installs it; tsc does not, so the link gets the same treatment here.
  chmodSync(CLI, 0o755);
  const dir = join(work, 'npx');
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(ROOT, join(dir, 'node_modules', 'esign-sandbox'));
  symlinkSync(join('..', 'esign-sandbox', 'dist', 'cli.js'), join(dir, 'node_modules', '.bin', 'esign-sandbox'));
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'npx-bench', private: true, dependencies: { 'esign-sandbox': '*' } }),
  );
  const npx = [];
  for (let i = 0; i < Math.min(3, SIZES.starts); i++) {
    const port = await freePort();
    const t0 = performance.now();
    const child = launch('npx', ['--no-install', 'esign-sandbox', '--port', String(port)], { cwd: dir });
    try {
      await waitHealthy(port, child);
      npx.push(performance.now() - t0);
    } finally {
      await stop(child);
    }
  }
  const n = median(npx);
  row(
    '`npx esign-sandbox` overhead (median, on top of the start)',
    n - o,
    undefined,
    'ms',
    'reported',
    'reported',
    `npx start ${fmt(n)} ms`,
  );
}

async function benchCreate() {
  const { createRounds: rounds, createSeconds } = SIZES;
  console.log(
    `Contract create, client token, 10 connections: ${rounds} rounds of ${createSeconds} s on each server, with the request log (the CLI's default) and --quiet`,
  );
  // Rounds of a fresh server each, the three in turn, and the medians: a core of this machine can run at half
  // speed for up to a second at a time, and single runs' ratios ranged 0.47–0.74 over seven runs.
  const runs = { log: [], quiet: [], bare: [] };
  const idle = {};
  for (let i = 0; i < rounds; i++) {
    for (const kind of ['log', 'quiet', 'bare']) {
      const server = await startServer(kind === 'bare' ? 'bare' : 'ours', [], { log: kind === 'log' });
      idle[kind] ??= rssMb(server.child.pid);
      const token = kind === 'bare' ? undefined : await clientToken(server.url);
      runs[kind].push(await createLoad(server.url, token, createSeconds));
      await stop(server.child);
    }
  }
  const b = median(runs.bare.map((r) => r.rps));
  const perRound = (kind) =>
    `rounds: ours ${runs[kind].map((r) => Math.round(r.rps)).join(', ')}; bare Hono ${runs.bare.map((r) => Math.round(r.rps)).join(', ')}; ratio per round ${runs[kind].map((r, j) => (r.rps / runs.bare[j].rps).toFixed(2)).join(', ')}`;
  const l = median(runs.log.map((r) => r.rps));
  row(
    'create: requests per second, request log on (median of rounds)',
    l,
    b,
    'req/s',
    '≥ 0.35× bare Hono',
    l / b >= 0.35 ? 'met' : 'MISSED',
    `the CLI's default pretty log, read from a pipe by the bench process; ${perRound('log')}`,
  );
  const q = median(runs.quiet.map((r) => r.rps));
  row(
    'create: requests per second, --quiet (median of rounds)',
    q,
    b,
    'req/s',
    '≥ 0.45× bare Hono',
    q / b >= 0.45 ? 'met' : 'MISSED',
    perRound('quiet'),
  );
  const p99 = Math.max(...runs.quiet.map((r) => r.p99), ...runs.log.map((r) => r.p99));
  row(
    'create: p99 latency (slowest round, either mode)',
    p99,
    Math.max(...runs.bare.map((r) => r.p99)),
    'ms',
    '< 10 ms',
    p99 < 10 ? 'met' : 'MISSED',
    `slowest round with the log ${fmt(Math.max(...runs.log.map((r) => r.p99)))} ms, --quiet ${fmt(Math.max(...runs.quiet.map((r) => r.p99)))} ms`,
  );
  row('memory: RSS idle', idle.quiet, idle.bare, 'MB', 'reported', 'reported');
}

/**
 * The library in process (dist/index.js): startSandbox() to its resolved promise (default fixtures, in memory,
 * listening on a free port), and reset() of a sandbox with the default fixtures. Medians after a warm-up.
 */
async function benchInProcess() {
  const runs = QUICK ? 5 : 40;
  console.log(`In process: startSandbox() and reset(), medians of ${runs} after ${runs / 5} to warm up`);
  const { startSandbox } = await import(join(ROOT, 'dist', 'index.js'));
  const starts = [];
  for (let i = 0; i < runs + runs / 5; i++) {
    const t0 = performance.now();
    const sandbox = await startSandbox();
    const ms = performance.now() - t0;
    if (i >= runs / 5) starts.push(ms);
    await sandbox.close();
  }
  const s = median(starts);
  row(
    'in process: startSandbox() (median)',
    s,
    undefined,
    'ms',
    '< 10 ms',
    s < 10 ? 'met' : 'MISSED',
    `sorted: ${[...starts]
      .sort((x, y) => x - y)
      .map(fmt)
      .join(', ')}`,
  );
  const sandbox = await startSandbox();
  const resets = [];
  try {
    for (let i = 0; i < runs + runs / 5; i++) {
      const t0 = performance.now();
      await sandbox.reset();
      const ms = performance.now() - t0;
      if (i >= runs / 5) resets.push(ms);
    }
  } finally {
    await sandbox.close();
  }
  const r = median(resets);
  row(
    'in process: sandbox.reset() (median)',
    r,
    undefined,
    'ms',
    '< 1 ms',
    r < 1 ? 'met' : 'MISSED',
    `sorted: ${[...resets]
      .sort((x, y) => x - y)
      .map(fmt)
      .join(', ')}`,
  );
}

/**
 * Warms a sandbox's JIT, then empties it: WARMUP creates on another client (the create path settles only after
 * ~6,000), a reset to the fixtures, and SETTLE creates on a new client (the first requests after a reset are
 * slow again). Resolves with a token of the demo client, whose contracts are the ones listed.
 */
async function warm(base) {
  await createAmount(base, await otherClientToken(base), WARMUP);
  await json(`${base}/__sandbox/reset`, {});
  await createAmount(base, await otherClientToken(base), SETTLE);
  return clientToken(base);
}

/**
 * Creates contracts in chunks on an in-memory and a --data sandbox side by side, with list latencies at
 * 10,000 and 100,000 stored; the bare server gets the same lists.
 */
async function benchVolume() {
  const { chunk, chunks } = SIZES;
  console.log(
    `Create rate in ${chunks} chunks of ${chunk}, alternating between an in-memory and a --data sandbox (and bare Hono)`,
  );
  // Both sandboxes grow side by side, chunk by chunk, so each --data chunk is compared with an in-memory chunk
  // run moments apart at the same store size, not with one measured a minute earlier under other load. Bare
  // Hono takes its turn too, emptied at every chunk: its rate is the machine's speed at a constant store size,
  // which the flatness figure needs (it compares chunks a minute apart).
  const mem = await startServer('ours');
  const file = join(work, 'data.json');
  const data = await startServer('ours', ['--data', file]);
  const bare = await startServer('bare');
  const memToken = await warm(mem.url);
  const token = await warm(data.url);
  await createAmount(bare.url, undefined, WARMUP);
  const memRates = [];
  const dataRates = [];
  const bareRates = [];
  const lists = {};
  const memLists = {};
  const rss = {};
  // Each chunk is run in short slices that take turns between the three servers. On this kind of machine a
  // core's speed halves for a tenth of a second to a second at a time (the same loop takes twice the CPU
  // time), so slices must be shorter than those spells for the servers to share them.
  const slices = QUICK ? 4 : 20;
  const turns = { mem: [mem.url, memToken], data: [data.url, token], bare: [bare.url, undefined] };
  const names = Object.keys(turns);
  for (let i = 0; i < chunks; i++) {
    await json(`${bare.url}/__bench/clear`, {});
    const seconds = { mem: 0, data: 0, bare: 0 };
    for (let s = 0; s < slices; s++) {
      for (let k = 0; k < names.length; k++) {
        const which = names[(i + s + k) % names.length];
        const [base, t] = turns[which];
        seconds[which] += (await createAmount(base, t, chunk / slices)).seconds;
      }
    }
    memRates.push(chunk / seconds.mem);
    dataRates.push(chunk / seconds.data);
    bareRates.push(chunk / seconds.bare);
    const stored = (i + 1) * chunk;
    if (i === 0 || i === chunks - 1) {
      // Listed on both, so that both carry the same work into the next chunk.
      memLists[stored] = await listLatency(mem.url, memToken);
      lists[stored] = await listLatency(data.url, token);
      const listed = await json(`${data.url}/api/contract`, JSON.parse(LIST_BODY), {
        authorization: `Bearer ${token}`,
      });
      lists[stored].count = listed.contracts.length;
      rss[stored] = rssMb(data.child.pid);
    }
  }
  await stop(mem.child);
  const t0 = performance.now();
  await stop(data.child);
  const stopMs = performance.now() - t0;
  const restart = performance.now();
  const again = await startServer('ours', ['--data', file]);
  const reloadMs = performance.now() - restart;
  const health = await (await fetch(`${again.url}/__sandbox/health`)).json();
  await stop(again.child);

  const small = chunk;
  const large = chunk * chunks;
  await json(`${bare.url}/__bench/clear`, {});
  await json(`${bare.url}/__bench/fill`, { n: small });
  const bareSmall = await listLatency(bare.url, undefined);
  await json(`${bare.url}/__bench/fill`, { n: large - small });
  const bareLarge = await listLatency(bare.url, undefined);
  const bareRss = rssMb(bare.child.pid);
  await stop(bare.child);

  const growth = lists[large].p99 / lists[small].p99;
  const listGrowth = lists[large].count / lists[small].count;
  row(
    `list: p99 with ${small} stored`,
    lists[small].p99,
    bareSmall.p99,
    'ms',
    small >= 10_000 ? '< 25 ms' : 'reported',
    small < 10_000 ? 'reported' : lists[small].p99 < 25 ? 'met' : 'MISSED',
    `the --data sandbox's list holds ${lists[small].count} contracts; bare Hono lists ${small}; ${spread(lists[small])} (bare ${spread(bareSmall)}; the in-memory sandbox's p99 ${fmt(memLists[small].p99)} ms)`,
  );
  row(
    `list: p99 with ${large} stored`,
    lists[large].p99,
    bareLarge.p99,
    'ms',
    'reported',
    'reported',
    `the --data sandbox's list holds ${lists[large].count} contracts; bare Hono lists ${large}; ${spread(lists[large])} (bare ${spread(bareLarge)}; the in-memory sandbox's p99 ${fmt(memLists[large].p99)} ms)`,
  );
  row(
    `list: p99 growth ${small} → ${large} stored`,
    growth,
    bareLarge.p99 / bareSmall.p99,
    '×',
    'reported',
    'reported',
    `the list grew ${fmt(listGrowth)}×`,
  );

  // Chunks are a few seconds each; single chunks swing with whatever else the machine runs, so the figures
  // compare averages over two or three chunks.
  const mean = (xs) => xs.reduce((x, y) => x + y, 0) / xs.length;
  const ok = (ratio, min) => (ratio >= min ? 'met' : 'MISSED');
  const pair = (from, to) => [mean(dataRates.slice(from, to)), mean(memRates.slice(from, to))];
  const [d0, m0] = pair(0, 1);
  const [d1, m1] = pair(1, 3);
  // Whole run: creates over time spent, both sandboxes (a harmonic mean of the chunk rates).
  const whole = (rates) => (rates.length * chunk) / rates.reduce((t, r) => t + chunk / r, 0);
  const [dAll, mAll] = [whole(dataRates), whole(memRates)];
  const ratios = dataRates.map((r, i) => r / memRates[i]);
  const worst = ratios.indexOf(Math.min(...ratios));
  row(`--data create rate, first ${chunk}`, d0, m0, 'req/s', '≥ 0.8× in memory', ok(d0 / m0, 0.8));
  row(`--data create rate, ${chunk} → ${3 * chunk} stored`, d1, m1, 'req/s', '≥ 0.8× in memory', ok(d1 / m1, 0.8));
  row(
    `--data create rate, whole run 0 → ${large} stored`,
    dAll,
    mAll,
    'req/s',
    '≥ 0.8× in memory',
    ok(dAll / mAll, 0.8),
  );
  row(
    `--data create rate, slowest ${chunk} window (${worst * chunk} → ${(worst + 1) * chunk})`,
    dataRates[worst],
    memRates[worst],
    'req/s',
    'reported',
    'reported',
    'single chunks swing with the machine; compactions start at about 38,000 and 77,000 contracts (docs/persistence.md)',
  );
  // Flat: the --data rate in the last three chunks against the first three, each chunk's rate taken relative
  // to bare Hono's in the same seconds. The machine's speed moves by 2× within a minute here (both sandboxes'
  // raw rates fell together in one run), and that must not pass for, or hide, a slowdown with the store's size.
  const against = (rates) => rates.map((r, i) => r / bareRates[i]);
  const flat = (rates) => mean(against(rates).slice(-3)) / mean(against(rates).slice(0, 3));
  const [dFlat, mFlat] = [flat(dataRates), flat(memRates)];
  const raw = mean(dataRates.slice(-3)) / mean(dataRates.slice(0, 3));
  const list = (rates) => rates.map((r) => Math.round(r)).join(', ');
  row(
    `--data create rate, last 3 chunks vs first 3 (flat to ${large})`,
    dFlat,
    mFlat,
    '×',
    '≥ 0.8× (flat)',
    ok(dFlat, 0.8),
    `each chunk's rate relative to bare Hono's in the same seconds (bare Hono emptied every chunk); baseline: the in-memory sandbox's flatness; raw rates, last 3 / first 3: ${raw.toFixed(2)}×. Chunks of ${chunk}, --data: ${list(dataRates)}; in memory: ${list(memRates)}; bare Hono: ${list(bareRates)}`,
  );
  row(
    `--data graceful stop with ${large} stored (flush + compaction)`,
    stopMs,
    undefined,
    'ms',
    'reported',
    'reported',
  );
  row(
    `--data restart with ${large} stored, to first healthy answer`,
    reloadMs,
    undefined,
    'ms',
    'reported',
    health.counts.contracts >= large ? 'reported' : 'MISSED',
    `reloaded ${health.counts.contracts} contracts`,
  );
  const perOurs = ((rss[large] - rss[small]) / (large - small)) * 10_000;
  row(
    'memory: RSS per 10,000 contracts',
    perOurs,
    undefined,
    'MB',
    'reported',
    'reported',
    `RSS ${fmt(rss[small])} MB at ${small}, ${fmt(rss[large])} MB at ${large}; bare Hono ${fmt(bareRss)} MB at ${large}`,
  );
}

async function benchClock() {
  console.log(`Clock advance of 30 days with ${SIZES.timers} pending timers`);
  const { createSandbox } = await import(join(ROOT, 'dist', 'sandbox.js'));
  const sandbox = await createSandbox({ clock: 'frozen', start: '2026-01-01T00:00:00Z' });
  const { clock } = sandbox.services;
  let ran = 0;
  const span = 30 * 86_400_000;
  const now = clock.now();
  for (let i = 0; i < SIZES.timers; i++) {
    // Timers that do the kind of work retries and scenario steps do: touch the store, start async work.
    clock.schedule(
      now + Math.floor(((i + 1) * span) / (SIZES.timers + 1)),
      () => {
        ran++;
        return clock.work.track(Promise.resolve());
      },
      'bench',
    );
  }
  const t0 = performance.now();
  await clock.advance(span);
  const ms = performance.now() - t0;
  await sandbox.close();
  row(
    `clock advance 30 days, ${SIZES.timers} pending timers`,
    ms,
    undefined,
    'ms',
    '< 1000 ms',
    ms < 1000 && ran === SIZES.timers ? 'met' : 'MISSED',
    `${ran} timers ran; each starts tracked async work, as a webhook retry or scenario step does`,
  );
}

async function benchWebhooks() {
  console.log(`Webhook fan-out: ${SIZES.events} events to a local receiver`);
  let received = 0;
  let onReceived = () => {};
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      onReceived();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
  const hook = `http://127.0.0.1:${receiver.address().port}/hook`;
  const ours = await startServer('ours');
  try {
    const token = await clientToken(ours.url);
    await json(
      `${ours.url}/api/webhook`,
      { data: { action: 'create', webhooks: [{ url: hook, created: true }] } },
      { authorization: `Bearer ${token}` },
    );
    const waitFor = (n, timeoutMs) =>
      new Promise((resolve) => {
        if (received >= n) return resolve(true);
        const timer = setTimeout(() => resolve(false), timeoutMs);
        onReceived = () => {
          if (received >= n) {
            clearTimeout(timer);
            resolve(true);
          }
        };
      });
    await json(`${ours.url}/api/contract`, JSON.parse(CREATE_BODY), { authorization: `Bearer ${token}` });
    if (!(await waitFor(1, 3000))) {
      row(
        `webhook fan-out: ${SIZES.events} events`,
        undefined,
        undefined,
        'deliveries/s',
        'reported',
        'not measured: this build does not deliver webhooks (no delivery within 3 s of a contract.created event)',
      );
      return;
    }
    received = 0;
    const t0 = performance.now();
    await createAmount(ours.url, token, SIZES.events);
    const done = await waitFor(SIZES.events, 60_000);
    const seconds = (performance.now() - t0) / 1000;
    // Baseline: this process posting the same number of JSON bodies to the same receiver, 10 at a time.
    received = 0;
    const payload = JSON.stringify({
      event: 'contract.created',
      data: { contractKey: 'x'.repeat(20), status: 'Created' },
    });
    const b0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (next < SIZES.events) {
          next++;
          const res = await fetch(hook, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: payload,
          });
          await res.arrayBuffer();
        }
      }),
    );
    const bareRate = SIZES.events / ((performance.now() - b0) / 1000);
    row(
      `webhook fan-out: ${SIZES.events} events, deliveries per second`,
      done ? SIZES.events / seconds : undefined,
      bareRate,
      'deliveries/s',
      'reported',
      done ? 'reported' : 'MISSED',
      done
        ? 'from the first create to the last delivery; baseline: plain fetch() loop, 10 at a time'
        : `only ${received} deliveries within 60 s`,
    );
  } finally {
    await stop(ours.child);
    receiver.close();
  }
}

// ---------------------------------------------------------------------------------------------------------

function printTable() {
  const header = ['figure', 'ours', 'baseline', 'ratio', 'target', 'verdict'];
  const lines = rows.map((r) => [
    r.figure,
    r.ours === undefined ? '—' : `${fmt(r.ours)} ${r.unit}`,
    r.baseline === undefined ? '—' : `${fmt(r.baseline)} ${r.unit}`,
    r.ratio === undefined ? '—' : `${r.ratio.toFixed(2)}×`,
    r.target,
    r.verdict,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => String(l[i]).length)));
  const show = (cells) => cells.map((c, i) => String(c).padEnd(widths[i])).join('  ');
  console.log(`\n${show(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const l of lines) console.log(show(l));
  for (const r of rows.filter((r) => r.note)) console.log(`  · ${r.figure}: ${r.note}`);
}

/** Documents (bench/documents.mjs): download_pdf of a 20-page HTML contract and of a 20-page PDF with 40 fields, a 10 MB upload, memory after 100 downloads. */
async function benchDocuments() {
  for (const r of await documentFigures({ quick: QUICK }))
    row(r.figure, r.ours, undefined, r.unit, r.target, r.verdict, r.note);
}

/** The installed size (bench/install-size.mjs): npm pack, npm install into a fresh project, du of node_modules. */
async function benchInstallSize() {
  for (const r of await installSizeFigures()) row(r.figure, r.ours, undefined, r.unit, r.target, r.verdict, r.note);
}

async function main() {
  const steps = [
    benchStartup,
    benchInProcess,
    benchCreate,
    benchVolume,
    benchClock,
    benchWebhooks,
    benchDocuments,
    benchInstallSize,
  ];
  const only = process.argv[2];
  for (const step of steps) {
    if (only && !step.name.toLowerCase().includes(only.toLowerCase())) continue;
    try {
      await step();
    } catch (error) {
      row(
        step.name,
        undefined,
        undefined,
        '',
        '—',
        `FAILED: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  printTable();
  const seconds = (performance.now() - started) / 1000;
  const result = {
    at: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    cpu: cpus()[0]?.model,
    quick: QUICK,
    seconds,
    figures: rows,
  };
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results', 'latest.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    `\n${rows.filter((r) => r.verdict === 'met').length} targets met, ${rows.filter((r) => r.verdict === 'MISSED' || r.verdict.startsWith('FAILED')).length} missed; ${seconds.toFixed(0)} s; written to bench/results/latest.json`,
  );
  if (rows.some((r) => r.verdict === 'MISSED' || r.verdict.startsWith('FAILED'))) process.exitCode = 1;
}

try {
  await main();
} finally {
  for (const child of children) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  rmSync(work, { recursive: true, force: true });
}

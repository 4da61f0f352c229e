/**
 * Tenants with their own clocks (bench/run.mjs; docs/benchmarks.md): creating a tenant with its own clock and
 * resetting it over HTTP (p99 of each, one after the other on one keep-alive connection; in process, against the
 * CLI, and against a plain node:http server for the machine's floor), and the create rate of a
 * sandbox whose 50 tenants each hold 100 pending timers on their own clocks, against the same 5,000 timers held on
 * the one sandbox clock (50 tenants that follow it), rounds interleaved on fresh servers.
 * Runs alone too: `node bench/tenants.mjs` (after `npm run build`).
 */
import { performance } from 'node:perf_hooks';
import { spawn } from 'node:child_process';
import { QUICK, clientToken, createLoad, fmt, json, median, row, startServer, stop } from './harness.mjs';
import { exchanger } from './keep-alive.mjs';

/** Cycles measured, after WARM_UP cycles that let the JIT finish compiling the paths (short runs measure it too). */
const CYCLES = QUICK ? 100 : 1000;
const WARM_UP = QUICK ? 100 : 2000;
const TENANTS = 50;
const TIMERS = 100;
const ROUNDS = QUICK ? 1 : 3;
const SECONDS = QUICK ? 1 : 3;

/** A scenario of `TIMERS` steps due over the next days: each one a pending timer of its tenant's clock. */
const SCENARIO = `name: busy\ntimeline:\n${Array.from({ length: TIMERS }, (_, i) => `  - at: ${i + 1}h\n    clearFaults: true\n`).join('')}`;
const PLATFORM = JSON.stringify({ clock: 'frozen', start: '2026-03-01T09:00:00Z' });

const p99 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))];

/**
 * Creates a tenant with its own clock, then resets it, one request after the other on one keep-alive connection
 * (bench/keep-alive.mjs `exchanger`: fetch() alone cost ~1 ms a request here); each request's time, both lists.
 * `paths` gives the two requests, so the floor below can run the same loop.
 */
async function createAndReset(
  url,
  paths = { create: '/__sandbox/platforms', reset: (key) => `/__sandbox/platforms/${key}/reset` },
) {
  const client = await exchanger(url);
  const create = [];
  const reset = [];
  try {
    for (let i = 0; i < WARM_UP + CYCLES; i++) {
      let t0 = performance.now();
      const made = await client.exchange('POST', paths.create, PLATFORM);
      const created = performance.now() - t0;
      if (made.status !== 201 && made.status !== 200)
        throw new Error(`platform create answered ${made.status}: ${made.text}`);
      t0 = performance.now();
      const done = await client.exchange('POST', paths.reset(JSON.parse(made.text).apiKey), '{}');
      const resetMs = performance.now() - t0;
      if (done.status !== 200) throw new Error(`tenant reset answered ${done.status}: ${done.text}`);
      if (i >= WARM_UP) {
        create.push(created);
        reset.push(resetMs);
      }
    }
  } finally {
    client.end();
  }
  return { create: p99(create), reset: p99(reset), createMedian: median(create), resetMedian: median(reset) };
}

/**
 * The machine's floor for the same loop across two processes: a plain node:http server in a child process that
 * answers each request with a small JSON body (an apiKey), no framework, no work. On this 2-core VM its p99 is
 * ~3 ms while the same server in the client's own process answers at p99 ~0.5 ms: the tail is the two processes
 * taking turns on the cores, not the server's work.
 */
async function floorServer() {
  const code = `const http = require('node:http');
    http.createServer((req, res) => { req.resume(); req.on('end', () => { res.setHeader('content-type', 'application/json');
      res.end('{"apiKey":"floor","platformId":"floor"}'); }); }).listen(0, '127.0.0.1', function () { console.log(this.address().port); });`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(Number(String(d)))));
  return { child, url: `http://127.0.0.1:${port}` };
}

async function tenantLatencies() {
  const { startSandbox } = await import('../dist/index.js');
  const sandbox = await startSandbox({ clock: 'frozen', log: 'none' });
  let inProcess;
  try {
    inProcess = await createAndReset(sandbox.url);
  } finally {
    await sandbox.close();
  }
  const server = await startServer('esign', ['--clock', 'frozen']);
  let cli;
  try {
    cli = await createAndReset(server.url);
  } finally {
    await stop(server.child);
  }
  const floor = await floorServer();
  let plain;
  try {
    plain = await createAndReset(floor.url, { create: '/create', reset: () => '/reset' });
  } finally {
    floor.child.kill();
  }
  return { inProcess, cli, plain };
}

/** A server with 50 tenants, each with a scenario of 100 pending steps: on their own clocks, or on the sandbox's. */
async function createRate(ownClocks) {
  const server = await startServer('esign', ['--clock', 'frozen']);
  try {
    for (let i = 0; i < TENANTS; i++) {
      const platform = await json(`${server.url}/__sandbox/platforms`, ownClocks ? { clock: 'frozen' } : {});
      await json(`${server.url}/__sandbox/platforms/${platform.apiKey}/scenarios`, { yaml: SCENARIO });
    }
    const clock = await (await fetch(`${server.url}/__sandbox/clock`)).json();
    const expected = ownClocks ? 0 : TENANTS * TIMERS;
    if (clock.pendingTimers !== expected)
      throw new Error(`sandbox clock holds ${clock.pendingTimers} timers, not ${expected}`);
    const token = await clientToken(server.url);
    return (await createLoad(server.url, token, SECONDS)).rps;
  } finally {
    await stop(server.child);
  }
}

export async function benchTenants() {
  console.log(
    `Tenants: create + reset with its own clock (${CYCLES} cycles after ${WARM_UP}, in process, the CLI, a plain server); create rate with ${TENANTS} tenants × ${TIMERS} timers`,
  );
  const { inProcess, cli, plain } = await tenantLatencies();
  const both = (r) => `${fmt(r.create)} / ${fmt(r.reset)}`;
  const medians = (r) => `medians ${fmt(r.createMedian)} / ${fmt(r.resetMedian)} ms`;
  row(
    'tenant with its own clock: create / reset over HTTP, p99, sandbox started by the library',
    both(inProcess),
    undefined,
    'ms',
    '< 2 ms each',
    inProcess.create < 2 && inProcess.reset < 2 ? 'met' : 'MISSED',
    `${CYCLES} cycles after ${WARM_UP}, one keep-alive connection from the same process (startSandbox, as a vitest file runs it); ${medians(inProcess)}`,
  );
  row(
    'tenant with its own clock: create / reset over HTTP, p99, the CLI in another process',
    both(cli),
    `${fmt(plain.create)} / ${fmt(plain.reset)}`,
    'ms',
    'reported, beside the floor',
    'reported',
    `${medians(cli)}; baseline: the same loop against a plain node:http server in another process answering a fixed body (${medians(plain)}): the machine's floor for two processes taking turns on 2 cores`,
  );
  const own = [];
  const shared = [];
  for (let r = 0; r < ROUNDS; r++) {
    shared.push(await createRate(false));
    own.push(await createRate(true));
  }
  const ratio = median(own) / median(shared);
  row(
    `create rate, ${TENANTS} tenants × ${TIMERS} pending timers on their own clocks`,
    median(own),
    median(shared),
    'req/s',
    '≥ 0.9× the same timers on the one sandbox clock',
    ratio >= 0.9 ? 'met' : 'MISSED',
    `median of ${ROUNDS} rounds of ${SECONDS} s each, interleaved on fresh servers; baseline: the ${TENANTS * TIMERS} timers on the sandbox clock`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { rows } = await import('./harness.mjs');
  await benchTenants();
  for (const r of rows) console.log(JSON.stringify(r));
  process.exit(0);
}

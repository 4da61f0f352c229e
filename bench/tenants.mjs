/**
 * Tenants with their own clocks (bench/run.mjs; docs/benchmarks.md): creating a tenant with its own clock and
 * resetting it over HTTP (p99 of each, one after the other on one keep-alive connection), and the create rate of a
 * sandbox whose 50 tenants each hold 100 pending timers on their own clocks, against the same 5,000 timers held on
 * the one sandbox clock (50 tenants that follow it), rounds interleaved on fresh servers.
 * Runs alone too: `node bench/tenants.mjs` (after `npm run build`).
 */
import { performance } from 'node:perf_hooks';
import { QUICK, clientToken, createLoad, fmt, json, median, row, startServer, stop } from './harness.mjs';

const CYCLES = QUICK ? 50 : 500;
const TENANTS = 50;
const TIMERS = 100;
const ROUNDS = QUICK ? 1 : 3;
const SECONDS = QUICK ? 1 : 3;

/** A scenario of `TIMERS` steps due over the next days: each one a pending timer of its tenant's clock. */
const SCENARIO = `name: busy\ntimeline:\n${Array.from({ length: TIMERS }, (_, i) => `  - at: ${i + 1}h\n    clearFaults: true\n`).join('')}`;

const p99 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))];

async function createAndReset() {
  const server = await startServer('esign', ['--clock', 'frozen']);
  try {
    const create = [];
    const reset = [];
    for (let i = 0; i < CYCLES + 50; i++) {
      let t0 = performance.now();
      const platform = await json(`${server.url}/__sandbox/platforms`, {
        clock: 'frozen',
        start: '2026-03-01T09:00:00Z',
      });
      const created = performance.now() - t0;
      t0 = performance.now();
      await json(`${server.url}/__sandbox/platforms/${platform.apiKey}/reset`, {});
      const done = performance.now() - t0;
      if (i >= 50) {
        create.push(created);
        reset.push(done);
      }
    }
    return { create: p99(create), reset: p99(reset), createMedian: median(create), resetMedian: median(reset) };
  } finally {
    await stop(server.child);
  }
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
    `Tenants: create + reset with its own clock (${CYCLES} cycles); create rate with ${TENANTS} tenants × ${TIMERS} timers`,
  );
  const cr = await createAndReset();
  row(
    'tenant with its own clock: create / reset over HTTP, p99',
    `${fmt(cr.create)} / ${fmt(cr.reset)}`,
    undefined,
    'ms',
    '< 2 ms each',
    cr.create < 2 && cr.reset < 2 ? 'met' : 'MISSED',
    `${CYCLES} cycles after 50 to warm up, one keep-alive connection; medians ${fmt(cr.createMedian)} / ${fmt(cr.resetMedian)} ms`,
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

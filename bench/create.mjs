/**
 * Contract create over HTTP, and startSandbox()/reset() in process (bench/run.mjs, docs/benchmarks.md).
 * - create: `POST /api/contract` create (HTML content) with a client token, 10 connections (autocannon), 5 s after a
 *   1 s warm-up; three rounds on fresh servers: the CLI with its request log read from a pipe, the CLI with
 *   `--quiet`, bare Hono, and the previous build (bench/previous-build.mjs) in the same rounds; median rate, p99.
 * - in process: `startSandbox()` from dist/index.js (a free port) to its resolved promise, then `close()`; `reset()`
 *   of one sandbox; medians of 40 after 8 to warm up.
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ROOT, QUICK, SIZES, row, fmt, median, stop, startServer, rssMb, clientToken, createLoad } from './harness.mjs';
import { previousBuild } from './previous-build.mjs';

export async function benchCreate() {
  const { createRounds: rounds, createSeconds } = SIZES;
  // The previous release's build, run in the same rounds (bench/previous-build.mjs); BENCH_BEFORE_REF=none skips it.
  const before = process.env.BENCH_BEFORE_REF === 'none' ? undefined : previousBuild();
  console.log(
    `Contract create, client token, 10 connections: ${rounds} rounds of ${createSeconds} s on each server, with the request log (the CLI's default) and --quiet${before ? `, this build and ${before.commit.slice(0, 7)}'s` : ''}`,
  );
  // Rounds of a fresh server each, all in turn, and the medians: a core of this machine can run at half
  // speed for up to a second at a time, and single runs' ratios ranged 0.47–0.74 over seven runs.
  const kinds = ['log', 'quiet', 'bare', ...(before ? ['beforeLog', 'beforeQuiet'] : [])];
  const runs = Object.fromEntries(kinds.map((k) => [k, []]));
  const idle = {};
  for (let i = 0; i < rounds; i++) {
    for (const kind of kinds) {
      const log = kind === 'log' || kind === 'beforeLog';
      const cli = kind.startsWith('before') ? before.cli : undefined;
      const server = await startServer(kind === 'bare' ? 'bare' : 'ours', [], { log, ...(cli ? { cli } : {}) });
      idle[kind] ??= rssMb(server.child.pid);
      const token = kind === 'bare' ? undefined : await clientToken(server.url);
      runs[kind].push(await createLoad(server.url, token, createSeconds));
      await stop(server.child);
    }
  }
  const b = median(runs.bare.map((r) => r.rps));
  const ratios = (kind) => runs[kind].map((r, j) => (r.rps / runs.bare[j].rps).toFixed(2)).join(', ');
  const perRound = (kind) =>
    `rounds: ours ${runs[kind].map((r) => Math.round(r.rps)).join(', ')}; bare Hono ${runs.bare.map((r) => Math.round(r.rps)).join(', ')}; ratio per round ${ratios(kind)}`;
  const beforeNote = (kind) =>
    before
      ? `; ${before.commit.slice(0, 7)} in the same rounds: median ${fmt(median(runs[kind].map((r) => r.rps)) / b)}× (per round ${ratios(kind)})`
      : '';
  const l = median(runs.log.map((r) => r.rps));
  row(
    'create: requests per second, request log on (median of rounds)',
    l,
    b,
    'req/s',
    '≥ 0.38× bare Hono',
    l / b >= 0.38 ? 'met' : 'MISSED',
    `the CLI's default pretty log, read from a pipe by the bench process; ${perRound('log')}${beforeNote('beforeLog')}`,
  );
  const q = median(runs.quiet.map((r) => r.rps));
  row(
    'create: requests per second, --quiet (median of rounds)',
    q,
    b,
    'req/s',
    '≥ 0.45× bare Hono',
    q / b >= 0.45 ? 'met' : 'MISSED',
    `${perRound('quiet')}${beforeNote('beforeQuiet')}`,
  );
  if (before) {
    for (const [kind, label] of [
      ['beforeLog', 'request log on'],
      ['beforeQuiet', '--quiet'],
    ]) {
      const m = median(runs[kind].map((r) => r.rps));
      row(
        `create: requests per second, ${label}, previous build ${before.commit.slice(0, 7)} (median of rounds)`,
        m,
        b,
        'req/s',
        'reported (this build at or above it)',
        'reported',
        `per round ${ratios(kind)}`,
      );
    }
  }
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
export async function benchInProcess() {
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

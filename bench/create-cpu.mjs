/**
 * CPU, garbage collection and heap per contract create: figures the throughput benchmark cannot isolate on a busy
 * 2-core machine (docs/benchmarks.md). Measures the compiled dist/ (`npm run build` first).
 *
 *   node bench/create-cpu.mjs server             # server CPU per create over real HTTP: `dist/cli.js --quiet` and
 *                                                # bench/bare-hono.mjs, interleaved, read from /proc (Linux)
 *   node --expose-gc bench/create-cpu.mjs        # in process through app.request: CPU, GC and heap per contract
 *
 * Options (environment): CREATES=50000 per round, ROUNDS=3, JOURNAL=1000 (in process: the journal limit),
 * BEFORE=<another checkout, built> (server: also measures that checkout's dist/cli.js, interleaved, as `before`),
 * GC_DETAIL=1 (server: every collection as type:MB allocated/kB promoted/kB survived/fast-promotion).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { GCProfiler } from 'node:v8';
import { fileURLToPath } from 'node:url';
import { freePort } from '../scripts/free-port.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CREATES = Number(process.env.CREATES ?? 50_000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const BODY = JSON.stringify({
  data: { action: 'create', contract: { name: 'Bench agreement', value: '<p>The parties agree to the terms.</p>' } },
});
const DEMO = { apiKey: 'sandboxApiKey', secret: 'sandboxSecret', clientKey: 'demoClient' };

if (process.argv[2] === 'server') await serverCpu();
else await inProcess();

/** CPU milliseconds (user + system) a process has used, from /proc (10 ms ticks). */
function cpuMs(pid) {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

async function serverCpu() {
  const { default: autocannon } = await import('autocannon');
  const post = async (url, body, headers = {}) =>
    (
      await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      })
    ).json();
  async function start(kind) {
    const port = await freePort();
    const root = kind === 'before' ? process.env.BEFORE : ROOT;
    const args =
      kind === 'bare'
        ? [join(ROOT, 'bench', 'bare-hono.mjs'), String(port)]
        : [
            join(root, 'dist', 'cli.js'),
            '--port',
            String(port),
            '--quiet',
            ...(process.env.OURS_ARGS ?? '').split(' ').filter(Boolean),
          ];
    // --trace-gc-nvp: one line per collection with the bytes allocated since the last one, promoted, and its pause.
    const child = spawn(process.execPath, ['--trace-gc-nvp', ...args], { stdio: ['ignore', 'pipe', 'ignore'] });
    child.gcLines = [];
    let rest = '';
    child.stdout.on('data', (d) => {
      const lines = (rest + d).split('\n');
      rest = lines.pop();
      for (const line of lines) if (line.includes(' allocated=')) child.gcLines.push(line);
    });
    const base = `http://127.0.0.1:${port}`;
    for (;;) {
      try {
        if ((await fetch(`${base}/__sandbox/health`)).ok) break;
      } catch {
        /* not yet */
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    let token = 'bare';
    if (kind !== 'bare') {
      const platform = await post(`${base}/api/token`, {
        data: { action: 'create', apiKey: DEMO.apiKey, secret: DEMO.secret },
      });
      token = (
        await post(
          `${base}/api/token`,
          { action: 'create', clientKey: DEMO.clientKey },
          { authorization: `Bearer ${platform.access_token}` },
        )
      ).access_token;
    }
    return { child, base, token };
  }
  const load = (s, amount) =>
    new Promise((resolve, reject) => {
      autocannon(
        {
          url: `${s.base}/api/contract`,
          method: 'POST',
          connections: 10,
          amount,
          body: BODY,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${s.token}` },
        },
        (error, result) =>
          error ? reject(error) : result.non2xx ? reject(new Error(`${result.non2xx} non-2xx`)) : resolve(result),
      );
    });
  const kinds = process.env.BEFORE ? ['before', 'ours', 'bare'] : ['ours', 'bare'];
  const figures = { before: [], ours: [], bare: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of kinds) {
      const s = await start(kind);
      await load(s, 5000);
      const c0 = cpuMs(s.child.pid);
      const g0 = s.child.gcLines.length;
      await load(s, CREATES);
      const us = ((cpuMs(s.child.pid) - c0) * 1000) / CREATES;
      await new Promise((r) => setTimeout(r, 100));
      const field = (name) =>
        s.child.gcLines
          .slice(g0)
          .reduce((sum, line) => sum + Number(new RegExp(` ${name}=([0-9.]+)`).exec(line)?.[1] ?? 0), 0);
      figures[kind].push(us);
      console.log(
        `${kind.padEnd(6)}: ${us.toFixed(1)} µs server CPU per create; per create: ${Math.round(field('allocated') / CREATES)} B allocated, ` +
          `${Math.round(field('promoted') / CREATES)} B promoted, ${((field('pause') * 1000) / CREATES).toFixed(1)} µs GC pause (${s.child.gcLines.length - g0} collections)` +
          (process.env.GC_DETAIL
            ? ` ${s.child.gcLines
                .slice(g0)
                .map(
                  (l) =>
                    `${/ gc=(\w+)/.exec(l)[1]}:${Math.round(/ allocated=(\d+)/.exec(l)[1] / 1e6)}/${Math.round(/ promoted=(\d+)/.exec(l)[1] / 1e3)}/${Math.round((/ new_space_survived=(\d+)/.exec(l)?.[1] ?? 0) / 1e3)}/${/ fast_promote=([\d.]+)/.exec(l)?.[1]}`,
                )
                .join(' ')}`
            : ''),
      );
      s.child.kill();
    }
  }
  for (const kind of kinds.filter((k) => k !== 'bare')) {
    const ratios = figures[kind].map((o, i) => figures.bare[i] / o);
    console.log(`bare CPU / ${kind} CPU per create: ${ratios.map((r) => r.toFixed(2)).join(', ')}`);
  }
}

async function inProcess() {
  const { createSandbox } = await import(join(ROOT, 'dist', 'index.js'));
  const gc = globalThis.gc ?? (() => undefined);
  let gcMs = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMs += entry.duration;
  }).observe({ entryTypes: ['gc'] });
  const sandbox = await createSandbox({ journalLimit: Number(process.env.JOURNAL ?? 1000) });
  const app = sandbox.app;
  const post = async (path, body, headers = {}) =>
    (
      await app.request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      })
    ).json();
  const platform = await post('/api/token', { data: { action: 'create', apiKey: DEMO.apiKey, secret: DEMO.secret } });
  const client = await post(
    '/api/token',
    { action: 'create', clientKey: DEMO.clientKey },
    { authorization: `Bearer ${platform.access_token}` },
  );
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${client.access_token}` };
  const create = async () => {
    const res = await app.request('/api/contract', { method: 'POST', headers, body: BODY });
    if (res.status !== 201) throw new Error(`status ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
  };
  // 10 in flight, as the throughput benchmark's 10 connections.
  const run = async (n) => {
    let left = n;
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (left-- > 0) await create();
      }),
    );
  };
  await run(5000);
  for (let round = 0; round < ROUNDS; round++) {
    gc();
    const heap0 = process.memoryUsage().heapUsed;
    const stored0 = sandbox.services.store.contracts.size;
    gcMs = 0;
    // Bytes allocated: what the heap grew by between collections, summed (a figure the machine's load does not move).
    const profiler = new GCProfiler();
    profiler.start();
    const cpu0 = process.cpuUsage();
    await run(CREATES);
    const cpu = process.cpuUsage(cpu0);
    const heapEnd = process.memoryUsage().heapUsed;
    const gcs = profiler.stop().statistics;
    let allocated = 0;
    let last = heap0;
    let majors = 0;
    for (const g of gcs) {
      allocated += g.beforeGC.heapStatistics.usedHeapSize - last;
      last = g.afterGC.heapStatistics.usedHeapSize;
      if (g.gcType !== 'Scavenge') majors++;
    }
    allocated += heapEnd - last;
    // The observer reports on a later turn of the event loop.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const gcDuring = gcMs;
    gc();
    gc();
    const heap1 = process.memoryUsage().heapUsed;
    const stored = sandbox.services.store.contracts.size - stored0;
    console.log(
      `in process: ${CREATES} creates: ${((cpu.user + cpu.system) / CREATES).toFixed(1)} µs CPU/create, GC ${((gcDuring * 1000) / CREATES).toFixed(1)} µs/create ` +
        `(${gcs.length - majors} scavenges, ${majors} major), ${Math.round(allocated / CREATES)} B allocated/create, ` +
        `heap +${Math.round((heap1 - heap0) / stored)} B/contract (${sandbox.services.store.contracts.size} stored)`,
    );
  }
  await sandbox.close();
}

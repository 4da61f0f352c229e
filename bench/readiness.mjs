/**
 * The readiness report over a big run (docs/readiness.md, docs/benchmarks.md): a journal of 10,000 /api requests and
 * 2,000 webhook deliveries, as ten naive clients leave it (a token each, contracts created and sent and read, the
 * first one polled, lists, one read in ten refused 429 and sent again at once), then `sandbox.report()` built five
 * times. Reports the median time of a build, its CPU time, and the longest event-loop stall while one is built
 * (target < 100 ms each), beside a floor: the same measure around a health probe. Runs the compiled library (dist/)
 * in this process, so its event loop is this one's. `node bench/readiness.mjs` prints the figures; bench/run.mjs calls
 * `readinessFigures()`. BEFORE=<another checkout, built> builds that one's report over the same traffic, interleaved.
 */
import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { QUICK, median, timedStall } from './harness.mjs';

const TARGET_MS = 100;
const CLIENTS = 10;
/** Per client: its token, then cycles of a create-and-send, eight reads (the first of its first contract) and a list. */
const REQUESTS_PER_CLIENT = QUICK ? 100 : 1000;
const CYCLE = 10;
const BUILDS = QUICK ? 2 : 5;

export async function readinessFigures() {
  const receiver = createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hooks = `http://127.0.0.1:${receiver.address().port}/hooks`;
  const builds = [
    { name: 'ours', dir: '..' },
    ...(process.env.BEFORE ? [{ name: 'before', dir: process.env.BEFORE }] : []),
  ];
  const runs = [];
  try {
    for (const build of builds) {
      const module =
        build.name === 'ours' ? '../dist/index.js' : pathToFileURL(resolve(build.dir, 'dist', 'index.js')).href;
      const { startSandbox } = await import(module);
      runs.push({ ...build, ...(await busySandbox(startSandbox, hooks)), builds: [] });
    }
    let floor = 0;
    for (let i = 0; i < 20; i++) floor = Math.max(floor, (await timedStall(() => runs[0].sandbox.health())).stall);
    for (let i = 0; i < BUILDS; i++)
      for (const run of runs) {
        const cpu = process.cpuUsage();
        const build = await timedStall(async () => {
          run.report = await run.sandbox.report();
        });
        const used = process.cpuUsage(cpu);
        run.builds.push({ ...build, cpu: (used.user + used.system) / 1000 });
      }
    return figures(runs, floor);
  } finally {
    for (const run of runs) await run.sandbox.close();
    await new Promise((resolve) => receiver.close(resolve));
  }
}

/** A sandbox after ten naive clients' traffic: its journal of 10,000 /api requests and 2,000 deliveries. */
async function busySandbox(startSandbox, hooks) {
  const sandbox = await startSandbox({
    clock: 'frozen',
    start: '2026-03-01T09:00:00Z',
    log: 'none',
    journalLimit: 2 * CLIENTS * REQUESTS_PER_CLIENT,
  });
  const { apiKey, secret } = await sandbox.createPlatform({ name: 'bench' });
  const api = async (path, data, token) => {
    const res = await fetch(`${sandbox.url}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : { 'x-service-key': apiKey }),
      },
      body: JSON.stringify({ data }),
    });
    return { status: res.status, body: await res.json() };
  };
  const client = (await api('/api/client', { action: 'create', client: { fullname: 'Bench' } })).body.client;
  const clientKey = client.clientKey;
  await api('/api/webhook', { action: 'create', clientKey, webhooks: [{ url: hooks, created: true, sent: true }] });
  // One read of a contract in ten is refused 429 with Retry-After, and the client reads again at once.
  await sandbox
    .tenant(apiKey)
    .faults.set({ match: { path: '/api/contract', action: 'read' }, status: 429, retryAfter: 5, probability: 0.1 });
  const run = async (n) => {
    const token = (await api('/api/token', { action: 'create', apiKey, secret })).body.access_token;
    let contractKey;
    let first;
    for (let i = 1; i < REQUESTS_PER_CLIENT; i++) {
      const step = (i - 1) % CYCLE;
      if (step === 0) {
        const created = await api(
          '/api/contract',
          {
            action: 'create',
            clientKey,
            contract: { name: `Bench ${n}-${i}`, value: '<p>Terms</p>' },
            recipients: [{ email: `signer${n}@example.com`, action: 'sign' }],
          },
          token,
        );
        contractKey = created.body.contract.contractKey;
        first ??= contractKey;
      } else if (step < CYCLE - 1) {
        // The first read of each cycle polls the client's first contract: the polling check has work to do.
        const read = { contractKey: step === 1 ? first : contractKey };
        await api('/api/contract', { action: 'read', clientKey, contract: read }, token);
      } else await api('/api/contract', { action: 'list', clientKey }, token);
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, n) => run(n)));
  await sandbox.settle();
  return { sandbox, deliveries: (await sandbox.webhooks.deliveries()).length };
}

function figures(runs, floor) {
  const [ours, before] = runs;
  const ms = (run) => median(run.builds.map((b) => b.ms));
  const cpu = (run) => median(run.builds.map((b) => b.cpu));
  const stall = (run) => Math.max(...run.builds.map((b) => b.stall));
  const size = `${ours.report.observed.requests.toLocaleString('en')} requests, ${ours.deliveries.toLocaleString('en')} deliveries`;
  const found = ours.report.findings.filter((f) => f.severity !== 'info').map((f) => `${f.id} ×${f.count}`);
  const verdict = (v) => (QUICK ? 'quick' : v < TARGET_MS ? 'met' : 'MISSED');
  const beside = (what) => (before ? `; BEFORE ${what()}` : '');
  return [
    {
      figure: `readiness report over ${size} (median of ${BUILDS} builds)`,
      ours: ms(ours),
      unit: 'ms',
      target: `< ${TARGET_MS} ms`,
      verdict: verdict(ms(ours)),
      note: `CPU time ${cpu(ours).toFixed(1)} ms (median; what load moves least)${beside(() => `${ms(before).toFixed(1)} ms, CPU ${cpu(before).toFixed(1)} ms`)}; findings: ${found.join(', ') || 'none'}`,
    },
    {
      figure: 'longest event-loop stall while the report is built',
      ours: stall(ours),
      unit: 'ms',
      target: `< ${TARGET_MS} ms`,
      verdict: verdict(stall(ours)),
      note: `floor, the same measure around a health probe (longest of 20): ${floor.toFixed(1)} ms${beside(() => `${stall(before).toFixed(1)} ms`)}`,
    },
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const r of await readinessFigures())
    console.log(`${r.figure}: ${r.ours.toFixed(1)} ${r.unit} (${r.target}: ${r.verdict}); ${r.note}`);
}

/**
 * A contract create through esign-sandbox/msw (MSW's handlers, the sandbox answering in process, no socket) beside
 * the same create over HTTP to the same sandbox, from the same process and the same `fetch` (docs/benchmarks.md).
 * Rounds alternate the two ways (MSW listening, then closed for the HTTP round, so HTTP pays no interception), and
 * each reports its median time per create, one request at a time, after a warm-up.
 * Run alone: `node bench/msw.mjs` (after `npm run build`).
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setupServer } from 'msw/node';
import { CREATE_BODY, QUICK, ROOT, fmt, median, row } from './harness.mjs';

const PRODUCTION = 'https://api.sendforsign.com';

/**
 * In-process creates settle in microtasks: a round of them holds back timers and socket events for seconds, among
 * them the server's keep-alive timer for the idle HTTP connection. They run here, before the HTTP round, so its
 * first create does not race that timer (it did: ECONNRESET on a connection closed in the same turn).
 */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

export async function benchMsw() {
  const rounds = QUICK ? 2 : 6;
  const perRound = QUICK ? 100 : 1000;
  console.log(`Create through MSW in process vs over HTTP: ${rounds} rounds of ${perRound} creates each way`);
  const { startSandbox } = await import(join(ROOT, 'dist', 'index.js'));
  const { handlers } = await import(join(ROOT, 'dist', 'msw.js'));
  const sandbox = await startSandbox({ quiet: true });
  const server = setupServer(...handlers(sandbox));
  const headers = { 'content-type': 'application/json', 'x-service-key': sandbox.apiKey };
  const body = JSON.stringify({ data: { ...JSON.parse(CREATE_BODY).data, clientKey: sandbox.clientKey } });
  const creates = async (base, count) => {
    const times = [];
    for (let i = 0; i < count; i++) {
      const t0 = performance.now();
      const res = await fetch(`${base}/api/contract`, { method: 'POST', headers, body });
      await res.arrayBuffer();
      times.push(performance.now() - t0);
      if (res.status !== 201) throw new Error(`create answered ${res.status}`);
    }
    return median(times);
  };
  const msw = [];
  const http = [];
  try {
    server.listen({ onUnhandledRequest: 'error' });
    await creates(PRODUCTION, perRound / 5);
    server.close();
    await settle();
    await creates(sandbox.url, perRound / 5);
    for (let i = 0; i < rounds; i++) {
      server.listen({ onUnhandledRequest: 'error' });
      msw.push(await creates(PRODUCTION, perRound));
      server.close();
      await settle();
      http.push(await creates(sandbox.url, perRound));
      await sandbox.reset();
    }
  } finally {
    server.close();
    await sandbox.close();
  }
  const m = median(msw);
  const h = median(http);
  row(
    'create through esign-sandbox/msw in process vs over HTTP: median ms per create, one at a time',
    m,
    h,
    'ms',
    '≤ 1× over HTTP (at least as fast)',
    m <= h ? 'met' : 'MISSED',
    `rounds: msw ${msw.map(fmt).join(', ')}; HTTP ${http.map(fmt).join(', ')}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await benchMsw();

/**
 * A bounded soak: mixed traffic (contracts created and sent, recipients changed, placeholders,
 * archives, bad requests, webhooks to a live receiver and to a dead endpoint that keeps retrying, clock
 * advances, recipient actions and log reads where those endpoints exist) for SOAK_CYCLES cycles (default 12; run
 * `SOAK_CYCLES=400 npx vitest run test/http/soak.test.ts` for the long run). A count of cycles, not a time: the
 * test checks what the traffic does (no server error, the log cap, a level heap), never how fast; its rate is a
 * figure of `npm run bench` (bench/soak.mjs runs this file and reads the summary line it prints).
 *
 * The store is the sandbox's state and grows with every contract by design, so the traffic runs in cycles of
 * CYCLE_CONTRACTS contracts ended by POST /__sandbox/reset. Heap is sampled after a forced GC at each cycle
 * end, when the store is back to its seed: anything that still grows there (listeners, timers, tracked work,
 * uncapped logs) is a leak. The assertion compares the last third of the samples with the middle third (the
 * first third is warm-up: JIT, caches), with slack for GC noise.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { expect, it } from 'vitest';
import { createWebhookReceiver } from '../../src/testing/webhook-receiver.js';
import { type Answer, type Auth, FROZEN, testSandbox } from '../support/helpers.js';
import { ALL_FLAGS } from '../support/webhook-support.js';

const CYCLES = Number(process.env.SOAK_CYCLES ?? 12);
const CYCLE_CONTRACTS = 15;
const MB = 1024 * 1024;
/** Small, so the delivery log hits its cap within every cycle. */
const LOG_LIMIT = 50;

/** Least-squares slope of ys over their index: bytes per cycle. */
function slope(ys: number[]): number {
  const n = ys.length;
  const mx = (n - 1) / 2;
  const my = average(ys);
  let num = 0;
  let den = 0;
  ys.forEach((y, x) => {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  });
  return den === 0 ? 0 : num / den;
}

/** A real GC between samples; vitest workers run without --expose-gc, so the flag is set at runtime. */
function collector(): () => void {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (typeof existing === 'function') return existing;
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

const average = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

it(`keeps the heap level through ${CYCLES} cycles of mixed traffic`, {
  timeout: 60_000 + CYCLES * 10_000,
}, async () => {
  const gc = collector();
  const receiver = await createWebhookReceiver();
  const t = await testSandbox({ ...FROZEN, webhookLogLimit: LOG_LIMIT });
  const routes = t.sandbox.app.routes.map((r) => `${r.method} ${r.path}`);
  const recipientAction = routes.find((r) => /^POST \/__sandbox\/recipients\/:[^/]+\/:[^/]+$/.test(r));
  const logReads = ['/__sandbox/emails', '/__sandbox/requests', '/__sandbox/webhook-deliveries'].filter((p) =>
    routes.includes(`GET ${p}`),
  );

  const statuses = new Map<number, number>();
  const serverErrors: string[] = [];
  const count = (what: string, res: Answer) => {
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    if (res.status >= 500) serverErrors.push(`${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    return res;
  };

  let auth: Auth;
  async function setup(): Promise<void> {
    auth = await t.demoAuth();
    const hooks = await t.post(
      '/api/webhook',
      {
        data: {
          action: 'create',
          webhooks: [
            { url: receiver.url, ...ALL_FLAGS },
            // Nothing listens on port 9 (discard): refused connections keep the retry schedule busy.
            { url: 'http://127.0.0.1:9/hook', created: true, sent: true, signed: true },
          ],
        },
      },
      auth,
    );
    receiver.useSecret(hooks.body.webhooks[0].secret);
  }
  /** Tokens live 30 minutes of sandbox time, and the soak moves the clock: a fresh one after each advance. */
  async function advance(by: string): Promise<void> {
    count('advance', await t.control('/clock/advance', { by }));
    auth = await t.demoAuth();
  }

  await setup();
  const heap: number[] = [];
  const rss: number[] = [];
  const started = performance.now();
  let contracts = 0;
  let cycles = 0;
  let deliveryLogPeak = 0;

  while (cycles < CYCLES) {
    const created = count(
      'create',
      await t.post(
        '/api/contract',
        {
          data: {
            action: 'create',
            contract: { name: `Soak ${contracts}`, value: `<p>${'x'.repeat(200)}</p>` },
            recipients: [
              { email: 'a@example.com', fullname: 'A', action: 'sign', position: 1 },
              { email: 'b@example.com', fullname: 'B', action: 'approve', position: 2 },
            ],
          },
        },
        auth,
      ),
    );
    const contractKey = created.body.contract?.contractKey as string;
    const recipients = count(
      'list recipients',
      await t.post('/api/recipient', { data: { action: 'list', contractKey } }, auth),
    );
    const [first] = recipients.body.recipients as { recipientKey: string }[];
    count(
      'update recipient',
      await t.post(
        '/api/recipient',
        { data: { action: 'update', contractKey, recipient: { recipientKey: first!.recipientKey, fullname: 'A2' } } },
        auth,
      ),
    );
    count(
      'placeholder',
      await t.post(
        '/api/placeholder',
        { data: { action: 'create', contractKey, placeholder: { name: 'price', value: '1' } } },
        auth,
      ),
    );
    count('list contracts', await t.post('/api/contract', { data: { action: 'list' } }, auth));
    count('list webhooks', await t.post('/api/webhook', { data: { action: 'list' } }, auth));
    count('not json', await t.post('/api/contract', '{"data": ', auth));
    count(
      'unknown action',
      await t.post('/api/contract', { data: { action: 'explode', junk: 'y'.repeat(1000) } }, auth),
    );
    if (recipientAction) {
      for (const verb of ['view', 'sign'])
        count(`recipient ${verb}`, await t.control(`/recipients/${first!.recipientKey}/${verb}`, {}));
    }
    if (contracts % 3 === 2)
      count('archive', await t.post('/api/contract', { data: { action: 'archive', contract: { contractKey } } }, auth));
    if (contracts % 5 === 4) {
      await advance('10m');
      for (const path of logReads) count(path, await t.request(path));
    }
    contracts++;

    if (contracts % CYCLE_CONTRACTS === 0) {
      // Let in-flight deliveries land, then back to the seed: only what should not survive a reset remains.
      await t.sandbox.services.clocks.sandbox.work.settled();
      deliveryLogPeak = Math.max(deliveryLogPeak, t.sandbox.control.webhooks.deliveries().length);
      count('reset', await t.control('/reset', {}));
      receiver.clear();
      await setup();
      cycles++;
      gc();
      gc();
      const usage = process.memoryUsage();
      heap.push(usage.heapUsed);
      rss.push(usage.rss);
    }
  }
  await t.close();
  await receiver.close();

  const third = Math.floor(heap.length / 3);
  const middle = average(heap.slice(third, 2 * third));
  const last = average(heap.slice(2 * third));
  // Warm-up (compiled code, caches) lasts a while into a run; the slope is taken over the second half.
  const climb = slope(heap.slice(Math.floor(heap.length / 2)));
  const summary = {
    seconds: +((performance.now() - started) / 1000).toFixed(2),
    requests: [...statuses.values()].reduce((a, b) => a + b, 0),
    contracts,
    cycles,
    statuses: Object.fromEntries(statuses),
    heapMB: { first: +(heap[0]! / MB).toFixed(1), middle: +(middle / MB).toFixed(1), last: +(last / MB).toFixed(1) },
    deliveryLogPeak,
    heapSlopeKBPerCycle: +(climb / 1024).toFixed(2),
    heapTrendMB: Array.from(
      { length: 10 },
      (_, i) => +(heap[Math.floor((i * (heap.length - 1)) / 9)]! / MB).toFixed(1),
    ),
    rssMB: {
      first: +(rss[0]! / MB).toFixed(1),
      max: +(Math.max(...rss) / MB).toFixed(1),
      last: +(rss.at(-1)! / MB).toFixed(1),
    },
  };
  console.log(`soak: ${JSON.stringify(summary)}`);

  expect(serverErrors).toEqual([]);
  expect(heap, 'a heap sample at the end of every cycle').toHaveLength(CYCLES);
  expect(contracts).toBe(CYCLES * CYCLE_CONTRACTS);
  // Slack: GC timing moves a sample by a few MB; a leak of a few hundred bytes per request over thousands of
  // requests per cycle would still show as a steady climb from the middle third to the last.
  expect(deliveryLogPeak, 'the delivery log stays within its cap').toBeLessThanOrEqual(LOG_LIMIT);
  expect(deliveryLogPeak, 'the cap was reached, so it was exercised').toBe(LOG_LIMIT);
  expect(last).toBeLessThanOrEqual(middle * 1.1 + 2 * MB);
  // In the long run, a steady climb shows as a slope. The AbortSignal.any leak on Node 20 that this soak found
  // climbed ~7-11 KB per cycle; a level heap measures about 1 KB per cycle or less. Only from 200 cycles: V8's warm-up
  // climbs as much for ~100 cycles (2026-11-28, 7-8 KB per cycle over cycles 50-100; heap snapshots at cycles 30 and 90
  // differ only by optimised code and its deopt data and relocation info, no object of the sandbox's), then levels off
  // (240 cycles: 1.2 KB per cycle over the second half), so a shorter run measured the warm-up.
  if (CYCLES >= 200) expect(climb / 1024, 'heap climb in KB per cycle').toBeLessThan(4);
});

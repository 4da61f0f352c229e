/**
 * Webhook fan-out to a local receiver (bench/run.mjs). See docs/benchmarks.md.
 */
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { SIZES, CREATE_BODY, row, stop, startServer, json, clientToken, createAmount } from './harness.mjs';

export async function benchWebhooks() {
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

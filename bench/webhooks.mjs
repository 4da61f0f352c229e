/**
 * Webhook fan-out to a local receiver (bench/run.mjs), in memory and with --data, each beside a plain fetch() loop
 * posting as many bodies to the same receiver, 10 at a time, measured right after it. See docs/benchmarks.md.
 */
import { createServer } from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { SIZES, CREATE_BODY, row, stop, startServer, json, clientToken, createAmount, work } from './harness.mjs';

/** The receiver every run posts to: counts what arrives, answers 200. */
async function receiver() {
  let received = 0;
  let onReceived = () => {};
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      onReceived();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}/hook`,
    reset: () => {
      received = 0;
    },
    /** Resolves true once n have arrived, false after timeoutMs. */
    waitFor: (n, timeoutMs) =>
      new Promise((resolve) => {
        if (received >= n) return resolve(true);
        const timer = setTimeout(() => resolve(false), timeoutMs);
        onReceived = () => {
          if (received >= n) {
            clearTimeout(timer);
            resolve(true);
          }
        };
      }),
    received: () => received,
    close: () => server.close(),
  };
}

/** Deliveries per second of one sandbox: first create to the last delivery; undefined when they do not all arrive. */
async function sandboxRate(hook, extra) {
  const ours = await startServer('ours', extra);
  try {
    const token = await clientToken(ours.url);
    await json(
      `${ours.url}/api/webhook`,
      { data: { action: 'create', webhooks: [{ url: hook.url, created: true }] } },
      { authorization: `Bearer ${token}` },
    );
    await json(`${ours.url}/api/contract`, JSON.parse(CREATE_BODY), { authorization: `Bearer ${token}` });
    if (!(await hook.waitFor(1, 3000))) return { rate: undefined, note: 'no delivery within 3 s of a create' };
    hook.reset();
    const t0 = performance.now();
    await createAmount(ours.url, token, SIZES.events);
    const done = await hook.waitFor(SIZES.events, 60_000);
    const rate = SIZES.events / ((performance.now() - t0) / 1000);
    return done ? { rate } : { rate: undefined, note: `only ${hook.received()} deliveries within 60 s` };
  } finally {
    await stop(ours.child);
  }
}

/** This process posting as many JSON bodies to the same receiver, 10 at a time. */
async function fetchLoopRate(hook) {
  hook.reset();
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
        const res = await fetch(hook.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: payload,
        });
        await res.arrayBuffer();
      }
    }),
  );
  return SIZES.events / ((performance.now() - b0) / 1000);
}

export async function benchWebhooks() {
  console.log(`Webhook fan-out: ${SIZES.events} events to a local receiver, in memory and with --data`);
  const hook = await receiver();
  try {
    for (const [label, extra] of [
      ['in memory', []],
      ['--data', ['--data', join(work, `fan-out-${Date.now()}.json`)]],
    ]) {
      const { rate, note } = await sandboxRate(hook, extra);
      const bare = await fetchLoopRate(hook);
      const verdict = rate === undefined ? 'MISSED' : rate / bare >= 0.8 ? 'met' : 'MISSED';
      row(
        `webhook fan-out ${label}: ${SIZES.events} events, deliveries per second`,
        rate,
        bare,
        'deliveries/s',
        '≥ 0.8×',
        verdict,
        note ??
          'from the first create to the last delivery (one endpoint, 1,000 contracts); baseline: plain fetch() loop, 10 at a time, right after',
      );
    }
  } finally {
    hook.close();
  }
}

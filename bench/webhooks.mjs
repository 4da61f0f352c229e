/**
 * Webhook fan-out to a local receiver (bench/run.mjs), in memory and with --data, each beside a plain fetch() loop
 * posting as many bodies to the same receiver, 10 at a time: rounds of the two interleaved, the median of the
 * rounds' ratios reported. See docs/benchmarks.md.
 *
 * The loop posts what the sandbox posts (LOOP_BODY, LOOP_HEADERS): a body of a `contract.created` delivery's bytes
 * and its `webhook-*` and `user-agent` headers (fixed values, nothing signed), so the receiver does the same work
 * for both; it posted a 90-byte body with one header (was up to 2026-11-28).
 *
 * BENCH_BEFORE_REF=<git ref> also runs that ref's build (bench/previous-build.mjs) in the same rounds, its ratio to
 * the same fetch() loop reported beside ours.
 */
import { createServer } from 'node:http';
import { previousBuild } from './previous-build.mjs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  SIZES,
  QUICK,
  CREATE_BODY,
  row,
  stop,
  startServer,
  json,
  clientToken,
  createAmount,
  work,
} from './harness.mjs';

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

/** A sandbox with one webhook to the receiver, warmed by one create; `round()` is its deliveries per second. */
async function sandboxUnderTest(hook, extra, cli) {
  const ours = await startServer('ours', extra, cli ? { cli } : {});
  const token = await clientToken(ours.url);
  await json(
    `${ours.url}/api/webhook`,
    { data: { action: 'create', webhooks: [{ url: hook.url, created: true }] } },
    { authorization: `Bearer ${token}` },
  );
  await json(`${ours.url}/api/contract`, JSON.parse(CREATE_BODY), { authorization: `Bearer ${token}` });
  const warm = await hook.waitFor(1, 3000);
  return {
    warm,
    /** Deliveries per second, first create to the last delivery; undefined when they do not all arrive. */
    async round() {
      hook.reset();
      const t0 = performance.now();
      await createAmount(ours.url, token, SIZES.events);
      const done = await hook.waitFor(SIZES.events, 60_000);
      return done ? SIZES.events / ((performance.now() - t0) / 1000) : undefined;
    },
    stop: () => stop(ours.child),
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A `contract.created` delivery's body as the sandbox sends it (221 bytes), a made-up contract's. */
const LOOP_BODY = JSON.stringify({
  type: 'contract.created',
  timestamp: '2026-11-28T03:26:33.000Z',
  data: {
    contractKey: 'lSDIFvJwKxTlFwJ5DRrf',
    clientKey: 'demoClient',
    name: 'Bench agreement',
    status: 'Created',
    createTime: '2026-11-28T03:26:33.000Z',
  },
});
/** The headers a delivery carries beside fetch()'s own, values of the same lengths (the loop signs nothing). */
const LOOP_HEADERS = {
  'content-type': 'application/json',
  'user-agent': 'esign-sandbox/0.4.0',
  'webhook-id': 'msg_G1JlB7Yrcxb1BNNEzBb53nMt',
  'webhook-timestamp': '1795836393',
  'webhook-signature': 'v1,nf4k0BP6nQYMAJoyjJr2bVtP8d2SOUW0fbt0A/1nGiM=',
};

/** This process posting as many deliveries' bodies to the same receiver, 10 at a time. */
async function fetchLoopRate(hook) {
  hook.reset();
  const b0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (next < SIZES.events) {
        next++;
        const res = await fetch(hook.url, { method: 'POST', headers: LOOP_HEADERS, body: LOOP_BODY });
        await res.arrayBuffer();
      }
    }),
  );
  return SIZES.events / ((performance.now() - b0) / 1000);
}

/**
 * Rounds per mode: the baseline and the sandbox take turns (one first, then the other), so load moves both alike.
 * 9, not 5: a round lasts 0.2–0.5 s, as long as one of this VM's slow spells, and one round's ratio read 0.57–2.46
 * in the same run (2026-11-28, load 5–7); the median of 5 still moved 0.70–1.06 from run to run.
 * 25, not 9: with --data a compaction comes every ~8 rounds (16 MB of journal at ~2 KB a create) and lowers its round
 * and the next one or two (0.4–0.75×); 9 rounds held one compaction, at the third, so their median was the second-lowest
 * of six ordinary rounds and moved 0.77–0.96 from run to run; 25 hold three, about their share of a long run.
 */
const ROUNDS = QUICK ? 2 : 25;

/**
 * Rounds not counted, of each build and of the fetch() loop, before the counted ones of a mode. A sandbox just started
 * runs on cold code: its CPU per 1,000 events fell 1,190 → 760 → 470 → 380 → 340 → 320 ms over its first six rounds
 * (in memory; --data alike), so with one such round the counted ones measured mostly its warm-up, and the first
 * counted --data round read 0.43–0.58× where the last read 0.64–0.95×. 6, not 3: on 2026-11-28 (build 2374133) it
 * still fell 1,140 → 690 → 340 → 260 → 260 → 180 → 170 ms over its first seven rounds, steady from the sixth.
 */
const WARM_ROUNDS = QUICK ? 1 : 6;
/**
 * fetch() loops run before the first mode: the loop warms too (385 → 1,900/s over its first seven runs in a process),
 * so the first mode was measured against a colder loop than the second (13–16 % slower in the same run).
 */
const WARM_LOOPS = QUICK ? 1 : 6;

/** Rounds of one mode, after WARM_ROUNDS of each not counted: the fetch() loop and each build take turns, the loop first or last in alternate rounds. */
async function rounds(hook, builds) {
  const rates = builds.map(() => []);
  const bare = [];
  let note = builds.some((b) => !b.warm) ? 'no delivery within 3 s of a create' : undefined;
  for (let i = 0; i < WARM_ROUNDS && !note; i++) {
    await fetchLoopRate(hook);
    for (const build of builds) if ((await build.round()) === undefined) note = 'a warm-up round did not finish';
  }
  for (let i = 0; i < ROUNDS && !note; i++) {
    const b = i % 2 === 0 ? await fetchLoopRate(hook) : undefined;
    for (const [k, build] of builds.entries()) {
      const o = await build.round();
      if (o === undefined) note = `not all ${SIZES.events} deliveries within 60 s`;
      rates[k].push(o);
    }
    bare.push(b ?? (await fetchLoopRate(hook)));
  }
  return { rates, bare, note };
}

export async function benchWebhooks() {
  console.log(`Webhook fan-out: ${SIZES.events} events to a local receiver, in memory and with --data`);
  const before = process.env.BENCH_BEFORE_REF ? previousBuild(process.env.BENCH_BEFORE_REF) : undefined;
  const hook = await receiver();
  try {
    for (let i = 0; i < WARM_LOOPS; i++) await fetchLoopRate(hook);
    // Each build with --data writes its own file.
    const modes = [
      ['in memory', () => []],
      ['--data', (name) => ['--data', join(work, `fan-out-${name}-${Date.now()}.json`)]],
    ];
    for (const [label, extra] of modes) {
      const builds = [await sandboxUnderTest(hook, extra('ours'))];
      if (before) builds.push(await sandboxUnderTest(hook, extra('before'), before.cli));
      let result;
      try {
        result = await rounds(hook, builds);
      } finally {
        for (const build of builds) await build.stop();
      }
      const { rates, bare, note } = result;
      const ratios = rates.map((xs) => xs.map((o, i) => o / bare[i]));
      const ratio = note ? undefined : median(ratios[0]);
      const shown = (xs) => xs.map((x) => x.toFixed(2)).join(', ');
      const r = row(
        `webhook fan-out ${label}: ${SIZES.events} events, deliveries per second`,
        note ? undefined : median(rates[0]),
        median(bare),
        'deliveries/s',
        '≥ 0.8×',
        ratio !== undefined && ratio >= 0.8 ? 'met' : 'MISSED',
        note ??
          `medians of ${ROUNDS} rounds after ${WARM_ROUNDS} not counted, each from the first create to the last delivery (one endpoint); baseline: plain fetch() loop, 10 at a time, taking turns with ours; ratio: median of the rounds' ratios (${shown(ratios[0])})${before ? `; ${before.commit.slice(0, 7)} in the same rounds: ${Math.round(median(rates[1]))}/s, ratio ${median(ratios[1]).toFixed(2)} (${shown(ratios[1])})` : ''}`,
      );
      r.ratio = ratio;
    }
  } finally {
    hook.close();
  }
}

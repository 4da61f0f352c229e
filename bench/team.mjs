/**
 * Team mode on PostgreSQL (bench/run.mjs, docs/team-sandbox.md): contract create on one replica and on two behind
 * the bench (half the requests forwarded), each against the in-memory sandbox in the same rounds, with p99; and the
 * takeover after a kill -9 of the leader: the time from the kill to the first answer of the other replica. A
 * cluster of the bench's own (scripts/postgres-cluster.mjs), a fresh database per server.
 */
import pg from 'pg';
import { performance } from 'node:perf_hooks';
import { postgresBinaries, startCluster } from '../scripts/postgres-cluster.mjs';
import {
  CREATE_BODY,
  SIZES,
  cannon,
  clientToken,
  createAmount,
  fmt,
  freePort,
  headersFor,
  launch,
  median,
  row,
  startServer,
  stop,
  CLI,
  sleep,
} from './harness.mjs';

let databases = 0;

async function database(cluster) {
  const name = `esign_bench_${process.pid}_${++databases}`;
  const client = new pg.Client({ connectionString: cluster.url });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(cluster.url);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A replica on `store`; resolves once it answers (itself leading, or forwarding to the leader). */
async function replica(store) {
  const port = await freePort();
  const child = launch(process.execPath, [CLI, '--store', store, '--port', String(port), '--quiet']);
  const url = `http://127.0.0.1:${port}`;
  const deadline = performance.now() + 30_000;
  while (performance.now() < deadline) {
    try {
      const res = await fetch(`${url}/__sandbox/health`);
      await res.arrayBuffer();
      if (res.status === 200) return { child, url };
    } catch {
      /* not listening yet */
    }
    await sleep(20);
  }
  throw new Error(`replica on ${store} never answered: ${child.output()}`);
}

/** Creates for `seconds` on each url at once (10 connections in all), as a load balancer would spread them. */
async function spread(urls, token, seconds) {
  const load = (url, duration) =>
    cannon({
      url: `${url}/api/contract`,
      headers: headersFor(token),
      body: CREATE_BODY,
      duration,
      connections: 10 / urls.length,
    });
  await Promise.all(urls.map((u) => load(u, 1)));
  const results = await Promise.all(urls.map((u) => load(u, seconds)));
  return { rps: results.reduce((s, r) => s + r.rps, 0), p99: Math.max(...results.map((r) => r.p99)) };
}

export async function benchTeam() {
  const bin = postgresBinaries();
  if (!bin) {
    row(
      'team mode',
      undefined,
      undefined,
      '',
      'reported',
      'not measured: PostgreSQL is not installed (apt-get install postgresql)',
    );
    return;
  }
  const { createRounds: rounds, createSeconds } = SIZES;
  console.log(
    `Team mode: create on PostgreSQL, one replica and two, beside in memory (${rounds} rounds of ${createSeconds} s); takeover after kill -9`,
  );
  // fsync on: the figures are those of a database that keeps what it commits.
  const cluster = await startCluster(bin, { fsync: true });
  try {
    const runs = { memory: [], one: [], two: [] };
    for (let i = 0; i < rounds; i++) {
      const memory = await startServer('ours');
      runs.memory.push(await spread([memory.url], await clientToken(memory.url), createSeconds));
      await stop(memory.child);
      const one = await replica(await database(cluster));
      runs.one.push(await spread([one.url], await clientToken(one.url), createSeconds));
      await stop(one.child);
      const store = await database(cluster);
      const leader = await replica(store);
      const follower = await replica(store);
      runs.two.push(await spread([leader.url, follower.url], await clientToken(leader.url), createSeconds));
      await stop(follower.child);
      await stop(leader.child);
    }
    const m = median(runs.memory.map((r) => r.rps));
    const p99 = (kind) => Math.max(...runs[kind].map((r) => r.p99));
    for (const [kind, label] of [
      ['one', 'one replica'],
      ['two', 'two replicas, half the requests forwarded'],
    ]) {
      const rps = median(runs[kind].map((r) => r.rps));
      row(
        `team: create on PostgreSQL, ${label} (median of rounds)`,
        rps,
        m,
        'req/s',
        'reported',
        'reported',
        `baseline: the in-memory sandbox in the same rounds; p99 ${fmt(p99(kind))} ms (in memory ${fmt(p99('memory'))} ms); rounds ${runs[kind].map((r) => Math.round(r.rps)).join(', ')}`,
      );
    }
    await takeover(cluster);
  } finally {
    cluster.stop();
  }
}

/** kill -9 of the leader with `records` contracts stored, then the first answer of the other replica. */
async function takeover(cluster) {
  const times = [];
  const records = SIZES.chunk;
  for (let i = 0; i < 3; i++) {
    const store = await database(cluster);
    const leader = await replica(store);
    const token = await clientToken(leader.url);
    await createAmount(leader.url, token, records);
    const follower = await replica(store);
    const killed = performance.now();
    const gone = stop(leader.child, 'SIGKILL');
    for (;;) {
      const res = await fetch(`${follower.url}/__sandbox/health`).catch(() => undefined);
      if (res) await res.arrayBuffer();
      if (res?.status === 200) break;
    }
    times.push(performance.now() - killed);
    await stop(follower.child);
    await gone;
  }
  row(
    `team: takeover after kill -9 of the leader, ${records} contracts stored (median of 3)`,
    median(times),
    undefined,
    'ms',
    'reported',
    'reported',
    `from the kill to the first 200 of the other replica (its requests meanwhile wait for the new leader); runs ${times.map((t) => Math.round(t)).join(', ')} ms`,
  );
}

/**
 * Team mode (docs/team-sandbox.md): replicas on one PostgreSQL database are one sandbox. Real CLI processes, a
 * database per test, receivers in this process.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type WebhookReceiver, createWebhookReceiver } from '../../src/testing/webhook-receiver.js';
import { type ReplicaProcess, useTeam } from '../support/team.js';

const team = useTeam();
const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  for (const r of receivers.splice(0)) await r.close();
});

const FROZEN = ['--clock', 'frozen', '--start', '2026-03-01T09:00:00.000Z'];

async function call(base: string, path: string, body?: unknown, token?: string, method?: string) {
  const res = await fetch(`${base}${path}`, {
    method: method ?? (body === undefined ? 'GET' : 'POST'),
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let json: any = text;
  try {
    json = JSON.parse(text);
  } catch {
    /* the text shows in the assertion */
  }
  return { status: res.status, body: json, headers: res.headers };
}

async function clientToken(base: string): Promise<string> {
  const platform = await call(base, '/api/token', {
    data: { action: 'create', apiKey: 'sandboxApiKey', secret: 'sandboxSecret' },
  });
  expect(platform.status).toBe(201);
  const client = await call(
    base,
    '/api/token',
    { action: 'create', clientKey: 'demoClient' },
    platform.body.access_token,
  );
  expect(client.status).toBe(201);
  return client.body.access_token;
}

async function createContract(base: string, token: string, name = 'Team contract'): Promise<string> {
  const made = await call(
    base,
    '/api/contract',
    { data: { action: 'create', contract: { name, value: '<p>x</p>' } } },
    token,
  );
  expect(made.status).toBe(201);
  return made.body.contract.contractKey;
}

/** Two replicas on this test's database, the first of them leading. */
async function twoReplicas(args: string[] = []): Promise<[ReplicaProcess, ReplicaProcess]> {
  const leader = await team.replica(args);
  await leader.leading();
  const follower = await team.replica(args);
  return [leader, follower];
}

describe('two replicas on one database', () => {
  it('read a contract made on either at once, from the other', async () => {
    const [a, b] = await twoReplicas();
    const token = await clientToken(b.url);
    const onB = await createContract(b.url, token, 'made on B');
    const onA = await createContract(a.url, token, 'made on A');
    for (const [base, key, name] of [
      [a.url, onB, 'made on B'],
      [b.url, onA, 'made on A'],
    ] as const) {
      const read = await call(
        base,
        '/api/contract',
        { data: { action: 'read', contract: { contractKey: key } } },
        token,
      );
      expect(read.status).toBe(200);
      expect(read.body.contract.name).toBe(name);
    }
  });

  it('deliver a webhook due while both run once, and its retry once, at its time', async () => {
    const [a, b] = await twoReplicas(FROZEN);
    const r = await createWebhookReceiver({ rejectUnverified: false });
    receivers.push(r);
    r.failNext(1, { status: 503 });
    const token = await clientToken(b.url);
    const hook = await call(
      b.url,
      '/api/webhook',
      { data: { action: 'create', webhooks: [{ url: r.url, created: true }] } },
      token,
    );
    expect(hook.status).toBe(201);
    await createContract(b.url, token);
    await r.waitFor(1);
    // The retry is due 5 s later: the clock moved through the other replica.
    const advanced = await call(a.url, '/__sandbox/clock/advance', { by: '5s' });
    expect(advanced.status).toBe(200);
    await call(b.url, '/__sandbox/clock/advance', { by: '1h' });
    const [delivery] = (await call(b.url, '/__sandbox/webhook-deliveries')).body.deliveries;
    expect(delivery.attempts.map((x: any) => [x.trigger, x.at, x.statusCode])).toEqual([
      ['first', '2026-03-01T09:00:00.000Z', 503],
      ['retry', '2026-03-01T09:00:05.000Z', 200],
    ]);
    expect(r.deliveries.map((d) => d.id)).toEqual([delivery.webhookId, delivery.webhookId]);
  });

  it('show one tenant clock: advanced through one, it reads the same through the other', async () => {
    const [a, b] = await twoReplicas();
    const tenant = await call(a.url, '/__sandbox/platforms', { clock: 'frozen', start: '2030-01-01T00:00:00.000Z' });
    expect(tenant.status).toBe(201);
    const { apiKey } = tenant.body;
    expect((await call(b.url, `/__sandbox/platforms/${apiKey}/clock/advance`, { by: '2h' })).status).toBe(200);
    for (const base of [a.url, b.url])
      expect((await call(base, `/__sandbox/platforms/${apiKey}/clock`)).body).toMatchObject({
        now: '2030-01-01T02:00:00.000Z',
        mode: 'frozen',
        own: true,
      });
  });
});

describe('a replica killed with kill -9', () => {
  it('loses no acknowledged write; the other takes over and sends the pending retries at their times', async () => {
    const [a, b] = await twoReplicas(FROZEN);
    const r = await createWebhookReceiver({ rejectUnverified: false });
    receivers.push(r);
    r.failNext(3, { status: 503 });
    const token = await clientToken(b.url);
    await call(b.url, '/api/webhook', { data: { action: 'create', webhooks: [{ url: r.url, created: true }] } }, token);
    const keys = [];
    for (let i = 0; i < 3; i++) keys.push(await createContract(i % 2 ? a.url : b.url, token, `before the kill ${i}`));
    await r.waitFor(3);
    const before = (await call(b.url, '/__sandbox/webhook-deliveries')).body.deliveries;
    expect(before.map((d: any) => d.nextAttemptAt)).toEqual(Array(3).fill('2026-03-01T09:00:05.000Z'));

    await a.kill();
    // The first request after the kill waits for the takeover, then is answered by B, which now leads.
    const list = await call(b.url, '/api/contract', { data: { action: 'list' } }, token);
    expect(list.status).toBe(200);
    expect(list.body.contracts.map((c: any) => c.contractKey)).toEqual(expect.arrayContaining(keys));
    await b.leading();
    expect((await call(b.url, '/__sandbox/clock')).body.now).toBe('2026-03-01T09:00:00.000Z');

    await call(b.url, '/__sandbox/clock/advance', { by: '5s' });
    const after = (await call(b.url, '/__sandbox/webhook-deliveries')).body.deliveries;
    for (const d of after) {
      expect(d.status).toBe('delivered');
      expect(d.attempts.map((x: any) => [x.trigger, x.at])).toEqual([
        ['first', '2026-03-01T09:00:00.000Z'],
        ['retry', '2026-03-01T09:00:05.000Z'],
      ]);
    }
    // Each event twice (the refused first attempt, the retry), with its own webhook-id each time.
    const ids = r.deliveries.map((d) => d.id);
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(3);
    expect(r.accepted()).toHaveLength(3);
  });
});

describe('the database', () => {
  it('gets its schema made and versioned at the first start; a newer version is refused with one sentence', async () => {
    const first = await team.replica();
    await first.leading();
    expect(await team.sql("SELECT value FROM esign_sandbox_meta WHERE key = 'schema_version'")).toEqual([
      { value: '1' },
    ]);
    await first.kill();
    await team.sql("UPDATE esign_sandbox_meta SET value = '99' WHERE key = 'schema_version'");
    const refused = await team.replica().then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(refused).toMatch(/exited with 2/);
    expect(refused).toMatch(
      /esign-sandbox: The database .* holds esign-sandbox state of schema version 99, newer than this esign-sandbox .* reads \(up to 1\): upgrade esign-sandbox on every replica, or point --store at another database/,
    );
  });

  it('unreachable: replicas answer 503 with Retry-After, never an answer from a state it does not hold', async () => {
    const [a, b] = await twoReplicas();
    const token = await clientToken(a.url);
    const kept = await createContract(a.url, token, 'before the outage');
    const database = new URL(team.store()).pathname.slice(1);
    await onOtherDatabase(team, `ALTER DATABASE ${database} ALLOW_CONNECTIONS false`);
    await onOtherDatabase(
      team,
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${database}' AND pid <> pg_backend_pid()`,
    );
    for (const base of [a.url, b.url]) {
      const answer = await call(base, '/api/contract', { data: { action: 'list' } }, token);
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('1');
      expect(answer.body.message).toMatch(/ask again/);
    }
    await onOtherDatabase(team, `ALTER DATABASE ${database} ALLOW_CONNECTIONS true`);
    // Back: a replica takes the lead again and every acknowledged write is there.
    let answer: Awaited<ReturnType<typeof call>> | undefined;
    while (answer?.status !== 200) answer = await call(b.url, '/api/contract', { data: { action: 'list' } }, token);
    expect(answer.body.contracts.map((c: any) => c.contractKey)).toContain(kept);
  });
});

/** `ALTER DATABASE` on a database nobody may connect to: run from the cluster's own database. */
async function onOtherDatabase(world: ReturnType<typeof useTeam>, sql: string): Promise<void> {
  const { Client } = await import('pg');
  const url = new URL(world.store());
  url.pathname = '/postgres';
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

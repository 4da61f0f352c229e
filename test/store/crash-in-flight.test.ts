/**
 * What is in flight survives a SIGKILL of the real CLI on --data (docs/persistence.md, "What is kept"): a tenant's
 * frozen clock, webhook retries pending at a receiver answering 503, a scenario with a step and a reaction still due,
 * an outage running, a share link and the journal. After the restart each is there as it was, and advancing the
 * clock sends each retry once, at its time, with the same webhook-id.
 */
import { existsSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { createWebhookReceiver } from '../../src/testing/webhook-receiver.js';
import { dataFolderEachTest } from '../support/cli-process.js';
import { closeAfterEach } from '../support/helpers.js';

const START = '2026-03-01T09:00:00.000Z';
// Registered first, so closed last: after the CLIs that deliver to these receivers are killed.
const opened = closeAfterEach();
const data = dataFolderEachTest('esign-crash-in-flight-');
const start = () => data.start('--clock', 'frozen', '--start', START);

async function call(url: string, body?: unknown, token?: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: await res.json() };
}

async function clientToken(base: string): Promise<string> {
  const platform = await call(`${base}/api/token`, {
    data: { action: 'create', apiKey: 'sandboxApiKey', secret: 'sandboxSecret' },
  });
  return (await call(`${base}/api/token`, { action: 'create', clientKey: 'demoClient' }, platform.body.access_token))
    .body.access_token;
}

/** Waits, a turn at a time, until `done()`; the test's own time-out bounds it. */
async function until(done: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await done())) await new Promise((r) => setTimeout(r, 5));
}

const journalHas = (text: string) =>
  existsSync(`${data.file}.journal`) && readFileSync(`${data.file}.journal`, 'utf8').includes(text);

/** What a restart must give back as it was. */
async function observe(base: string, apiKey: string, token: string, contractKey: string) {
  const deliveries = (await call(`${base}/__sandbox/webhook-deliveries`)).body.deliveries.map((d: any) => ({
    id: d.id,
    url: d.url,
    webhookId: d.webhookId,
    status: d.status,
    nextAttemptAt: d.nextAttemptAt,
    attempts: d.attempts.map((a: any) => [a.at, a.statusCode]),
  }));
  return {
    tenantClock: (await call(`${base}/__sandbox/platforms/${apiKey}/clock`)).body,
    deliveries,
    scenario: (await call(`${base}/__sandbox/scenarios/crash`)).body,
    links: (
      await fetch(`${base}/api/contract_share_link?clientKey=demoClient&contractKey=${contractKey}`, {
        headers: { authorization: `Bearer ${token}` },
      }).then((r) => r.json() as Promise<{ shareLink: string }[]>)
    ).map((l) => l.shareLink),
  };
}

it('a SIGKILL loses nothing in flight: clocks, retries, a scenario, an outage, a link, the journal', async () => {
  const failing = await createWebhookReceiver({ rejectUnverified: false });
  const behindOutage = await createWebhookReceiver({ rejectUnverified: false });
  opened(failing);
  opened(behindOutage);
  failing.failNext(1, { status: 503 });

  const first = await start();
  const base = first.url;
  const tenant = await call(`${base}/__sandbox/platforms`, { clock: 'frozen', start: '2030-01-01T00:00:00.000Z' });
  expect(tenant.status).toBe(201);
  const { apiKey } = tenant.body;
  await call(`${base}/__sandbox/platforms/${apiKey}/clock/advance`, { by: '1h' });
  const scenario = `
name: crash
timeline:
  - { id: down, at: 1s, webhookOutage: { id: down, url: "${behindOutage.url}", for: 2h, status: 503 } }
  - { id: later, at: 1h, addFaults: [{ id: late, match: { path: /api/none }, status: 500 }] }
  - { id: react, when: contract.created, after: 30m, clearReceiverFaults: true }
`;
  expect((await call(`${base}/__sandbox/scenarios`, { yaml: scenario })).status).toBe(201);
  await call(`${base}/__sandbox/clock/advance`, { by: '1s' });
  const token = await clientToken(base);
  const hooks = [failing.url, behindOutage.url].map((url) => ({ url, created: true }));
  expect((await call(`${base}/api/webhook`, { data: { action: 'create', webhooks: hooks } }, token)).status).toBe(201);
  const made = await call(
    `${base}/api/contract`,
    { data: { action: 'create', contract: { name: 'Crash', value: '<p>x</p>' } } },
    token,
  );
  expect(made.status).toBe(201);
  const { contractKey } = made.body.contract;
  // Both first attempts answered 503 (the receiver's, the outage's): two retries pending.
  await until(async () => {
    const list = (await call(`${base}/__sandbox/webhook-deliveries`)).body.deliveries;
    return list.length === 2 && list.every((d: any) => d.attempts.length === 1 && d.status === 'pending');
  });
  const link = await call(`${base}/api/contract_share_link`, { contractKey }, token);
  expect(link.status).toBe(201);
  const before = await observe(base, apiKey, token, contractKey);
  expect(before.scenario.pendingTimers).toBe(2);
  expect(before.deliveries.map((d: any) => d.nextAttemptAt)).toEqual([
    '2026-03-01T09:00:06.000Z',
    '2026-03-01T09:00:06.000Z',
  ]);
  // Written (the last change, so every earlier one is too), then killed: no graceful stop.
  await until(() => journalHas(link.body.shareLink.shareLink) && journalHas('/api/contract_share_link'));
  first.child.kill('SIGKILL');
  await first.exited;

  const second = await start();
  const again = await clientToken(second.url);
  expect(await observe(second.url, apiKey, again, contractKey)).toEqual(before);
  const journal = (await call(`${second.url}/__sandbox/requests`)).body.requests;
  expect(journal.some((e: any) => e.path === '/api/contract_share_link' && e.status === 201)).toBe(true);

  // The receiver's retry, once, with the same webhook-id; the outage still answers the other's.
  await call(`${second.url}/__sandbox/clock/advance`, { by: '5s' });
  const [failingHook, outageHook] = before.deliveries as any[];
  expect(failing.deliveries.map((d) => d.id)).toEqual([failingHook.webhookId, failingHook.webhookId]);
  expect(behindOutage.deliveries).toHaveLength(0);
  // The reaction at 30 minutes, the step at an hour, the outage's end at two: the other retry then goes out once.
  await call(`${second.url}/__sandbox/clock/advance`, { by: '1d' });
  expect(behindOutage.deliveries.map((d) => d.id)).toEqual([outageHook.webhookId]);
  expect(failing.deliveries).toHaveLength(2);
  const after = await observe(second.url, apiKey, await clientToken(second.url), contractKey);
  const delivered = after.deliveries.find((d: any) => d.id === outageHook.id);
  expect(delivered.status).toBe('delivered');
  // Each retry at its time on the schedule (5 s, 5 min, 30 min, 2 h after the attempt before); the outage ended at
  // 11:00:01, so the one at 11:35:06 reached the receiver.
  expect(delivered.attempts.map((a: any) => a[0])).toEqual([
    '2026-03-01T09:00:01.000Z',
    '2026-03-01T09:00:06.000Z',
    '2026-03-01T09:05:06.000Z',
    '2026-03-01T09:35:06.000Z',
    '2026-03-01T11:35:06.000Z',
  ]);
  const ran = after.scenario.log.filter((l: any) => l.outcome === 'done').map((l: any) => `${l.at} ${l.cause}`);
  expect(ran).toEqual([
    '2026-03-01T09:00:01.000Z scenario:crash:down',
    '2026-03-01T09:30:01.000Z scenario:crash:react',
    '2026-03-01T10:00:00.000Z scenario:crash:later',
  ]);
  expect(after.tenantClock).toEqual(before.tenantClock);
}, 120_000);

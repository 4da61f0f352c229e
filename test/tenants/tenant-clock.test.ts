/**
 * A tenant's own clock (docs/library.md, "Parallel tests"): everything of the tenant follows it, advancing it runs
 * only its timers, and every operation about its world is scoped under /__sandbox/platforms/{apiKey}/….
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/index.js';
import { type TenantHandle, makeTenant } from '../support/tenant-kit.js';

let sandbox: RunningSandbox;
const SANDBOX_START = '2026-01-01T09:00:00.000Z';

beforeAll(async () => {
  sandbox = await startSandbox({ clock: 'frozen', start: SANDBOX_START, journalLimit: 5000 });
});
afterAll(() => sandbox.close());

/** A client with a webhook to a port that refuses, and a contract sent to one signer. */
async function world(t: TenantHandle, who: string) {
  const client = await t.api('/api/client', { data: { action: 'create', client: { fullname: who } } });
  const clientKey = client.body.client.clientKey as string;
  await t.api('/api/webhook', {
    data: { action: 'create', clientKey, webhooks: [{ url: 'http://127.0.0.1:9/refused', signed: true, sent: true }] },
  });
  const contract = await t.api('/api/contract', {
    data: {
      action: 'create',
      clientKey,
      contract: { name: `${who} lease`, value: '<p>Terms</p>' },
      recipients: [{ fullname: who, email: `${who}@example.com` }],
    },
  });
  expect(contract.status, JSON.stringify(contract.body)).toBe(201);
  return { clientKey, contractKey: contract.body.contract.contractKey as string };
}

describe('a tenant with its own clock', () => {
  it('starts where it is told, frozen, and says so; the sandbox clock does not move with it', async () => {
    const t = await makeTenant(sandbox.url, '2030-05-01T00:00:00Z');
    expect(await t.control('GET', '/clock')).toMatchObject({
      now: '2030-05-01T00:00:00.000Z',
      mode: 'frozen',
      own: true,
    });
    expect(await t.control('POST', '/clock/advance', { by: '2h' })).toMatchObject({ now: '2030-05-01T02:00:00.000Z' });
    expect((await sandbox.clock.state()).now).toBe(SANDBOX_START);
    expect((await sandbox.tenant(t.apiKey).clock.now()).toISOString()).toBe('2030-05-01T02:00:00.000Z');
  });

  it("dates the tenant's records, tokens, emails, journal entries and deliveries by its clock", async () => {
    const t = await makeTenant(sandbox.url, '2031-02-03T04:05:06Z');
    const { contractKey } = await world(t, 'ada');
    const contract = await t.control('GET', `/contracts/${contractKey}`);
    expect(contract.createTime).toBe('2031-02-03T04:05:06.000Z');
    const [email] = await sandbox.tenant(t.apiKey).outbox.list();
    expect(email?.sentAt).toBe('2031-02-03T04:05:06.000Z');
    const requests = (await t.control('GET', '/requests?path=/api/contract')).requests;
    expect(requests.map((r: { at: string }) => r.at)).toEqual(['2031-02-03T04:05:06.000Z']);
    const [delivery] = (await t.control('GET', '/webhook-deliveries')).deliveries;
    expect(delivery.createdAt).toBe('2031-02-03T04:05:06.000Z');
  });

  it('expires its tokens after 30 minutes of its own time, whatever other clocks do', async () => {
    const a = await makeTenant(sandbox.url, '2026-06-01T00:00:00Z');
    const b = await makeTenant(sandbox.url, '2026-06-01T00:00:00Z');
    const token = async (t: TenantHandle) =>
      (await t.api('/api/token', { data: { action: 'create', apiKey: t.apiKey, secret: t.secret } })).body
        .access_token as string;
    const [ta, tb] = [await token(a), await token(b)];
    const list = (t: TenantHandle, bearer: string) => t.api('/api/client', { data: { action: 'list' } }, bearer);
    await a.control('POST', '/clock/advance', { by: '31m' });
    await sandbox.clock.advance('2h');
    expect((await list(a, ta)).body.message).toBe('Token expired');
    expect((await list(b, tb)).status).toBe(200);
    await b.control('POST', '/clock/advance', { by: '29m' });
    expect((await list(b, tb)).status).toBe(200);
    await b.control('POST', '/clock/advance', { by: '1m' });
    expect((await list(b, tb)).status).toBe(401);
  });

  it('retries its webhook deliveries on its own schedule only', async () => {
    const a = await makeTenant(sandbox.url, '2026-07-01T00:00:00Z');
    const b = await makeTenant(sandbox.url, '2026-07-01T00:00:00Z');
    await world(a, 'alan');
    await world(b, 'grace');
    const attempts = async (t: TenantHandle) =>
      (await t.control('GET', '/webhook-deliveries')).deliveries.map((d: { attempts: unknown[] }) => d.attempts.length);
    expect(await attempts(a)).toEqual([1]);
    await a.control('POST', '/clock/advance', { by: '6m' });
    await sandbox.clock.advance('1d');
    expect(await attempts(a)).toEqual([3]);
    expect(await attempts(b)).toEqual([1]);
    const [delivery] = (await a.control('GET', '/webhook-deliveries')).deliveries;
    expect(delivery.attempts.map((x: { at: string }) => x.at)).toEqual([
      '2026-07-01T00:00:00.000Z',
      '2026-07-01T00:00:05.000Z',
      '2026-07-01T00:05:05.000Z',
    ]);
  });

  it("plays a scenario loaded for a tenant on the tenant's recipients and clock only", async () => {
    const a = await makeTenant(sandbox.url, '2026-08-01T00:00:00Z');
    const b = await makeTenant(sandbox.url, '2026-08-01T00:00:00Z');
    const yaml = 'name: prompt\nrecipients:\n  - match: {}\n    sign: 10m\n';
    await a.control('POST', '/scenarios', { yaml });
    const ca = await world(a, 'ada');
    const cb = await world(b, 'bob');
    await a.control('POST', '/clock/advance', { by: '9m' });
    expect((await a.control('GET', `/contracts/${ca.contractKey}`)).status).toBe('Sent');
    await a.control('POST', '/clock/advance', { by: '1m' });
    expect((await a.control('GET', `/contracts/${ca.contractKey}`)).status).toBe('Fully signed');
    await b.control('POST', '/clock/advance', { by: '1h' });
    expect((await b.control('GET', `/contracts/${cb.contractKey}`)).status).toBe('Sent');
    expect((await b.control('GET', '/scenarios')).active).toEqual([]);
    expect((await a.control('GET', '/scenarios/prompt')).apiKey).toBe(a.apiKey);
  });

  it("refuses another tenant's records as unknown, and lists only its own", async () => {
    const a = await makeTenant(sandbox.url, '2026-09-01T00:00:00Z');
    const b = await makeTenant(sandbox.url, '2026-09-01T00:00:00Z');
    const ca = await world(a, 'ann');
    await world(b, 'ben');
    await expect(b.control('GET', `/contracts/${ca.contractKey}`)).rejects.toThrow(/404/);
    const recipientKey = (await a.control('GET', `/contracts/${ca.contractKey}`)).recipients[0].recipientKey;
    await expect(b.control('POST', `/recipients/${recipientKey}/sign`, {})).rejects.toThrow(/404/);
    const emails = await sandbox.tenant(b.apiKey).outbox.list();
    expect(emails.map((e) => e.to)).toEqual(['ben@example.com']);
    const deliveries = await sandbox.tenant(b.apiKey).webhooks.deliveries();
    expect(deliveries.every((d) => d.contractKey !== ca.contractKey)).toBe(true);
    expect(deliveries.map((d) => d.event)).toEqual(['contract.sent']);
  });

  it('hits only its own requests with a fault set for it', async () => {
    const a = await makeTenant(sandbox.url, '2026-10-01T00:00:00Z');
    const b = await makeTenant(sandbox.url, '2026-10-01T00:00:00Z');
    await a.control('POST', '/faults', { match: { path: '/api/client' }, status: 503 });
    const list = { data: { action: 'list' } };
    expect((await a.api('/api/client', list)).status).toBe(503);
    expect((await b.api('/api/client', list)).status).toBe(200);
    expect((await b.control('GET', '/faults')).faults).toEqual([]);
    expect(await a.control('DELETE', '/faults')).toEqual({ removed: 1 });
  });

  it('a tenant without a clock follows the sandbox clock until its first scoped clock change, which takes its timers along', async () => {
    const created = await sandbox.createPlatform({ name: 'late' });
    expect(created.clock).toBeUndefined();
    const t = sandbox.tenant(created.apiKey);
    expect(await t.clock.state()).toMatchObject({ own: false, now: (await sandbox.clock.state()).now });
    const fetchApi = (path: string, body: unknown) =>
      fetch(`${sandbox.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-key': created.apiKey },
        body: JSON.stringify(body),
      }).then(async (r) => (await r.json()) as any);
    const clientKey = (await fetchApi('/api/client', { data: { action: 'create', client: { fullname: 'x' } } })).client
      .clientKey;
    await fetchApi('/api/webhook', {
      data: { action: 'create', clientKey, webhooks: [{ url: 'http://127.0.0.1:9/refused', created: true }] },
    });
    await fetchApi('/api/contract', {
      data: { action: 'create', clientKey, contract: { name: 'c', value: '<p>x</p>' } },
    });
    await t.settle(); // the first attempt, refused, has ended
    expect((await t.webhooks.deliveries())[0]?.attempts).toHaveLength(1);
    const own = await t.clock.freeze();
    expect(own.own).toBe(true);
    await sandbox.clock.advance('1h');
    expect((await t.webhooks.deliveries())[0]?.attempts).toHaveLength(1);
    await t.clock.advance('10s');
    expect((await t.webhooks.deliveries())[0]?.attempts).toHaveLength(2);
  });

  it('resets only itself, keeping its clock, and refuses a reset naming another tenant', async () => {
    const a = await makeTenant(sandbox.url, '2027-01-01T00:00:00Z');
    const b = await makeTenant(sandbox.url, '2027-01-01T00:00:00Z');
    await world(a, 'amy');
    await world(b, 'bea');
    await a.control('POST', '/clock/advance', { by: '1h' });
    expect(await a.control('POST', '/reset')).toMatchObject({
      status: 'reset',
      scope: 'platform',
      apiKey: a.apiKey,
      now: '2027-01-01T01:00:00.000Z',
    });
    expect((await a.control('GET', '/emails')).emails).toEqual([]);
    expect((await b.control('GET', '/emails')).emails).toHaveLength(1);
    await expect(a.control('POST', '/reset', { apiKey: b.apiKey })).rejects.toThrow(/400/);
  });

  it('answers 404 for a scoped call to a platform that does not exist, and refuses start without clock', async () => {
    const res = await fetch(`${sandbox.url}/__sandbox/platforms/nobody/clock`);
    expect(res.status).toBe(404);
    const bad = await fetch(`${sandbox.url}/__sandbox/platforms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ start: '2026-01-01T00:00:00Z' }),
    });
    expect(bad.status).toBe(400);
  });
});

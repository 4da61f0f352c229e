import { describe, expect, it } from 'vitest';
import { createWebhookReceiver } from '../../src/testing/webhook-receiver.js';
import { DEMO, testSandbox, sandboxEachTest } from '../support/helpers.js';

const t = sandboxEachTest();

const contractNames = async () => {
  const res = await t.post(
    '/api/contract',
    { data: { action: 'list', clientKey: DEMO.clientKey } },
    { apiKey: DEMO.apiKey },
  );
  return res.body.contracts.map((c: { name: string }) => c.name);
};
const createContract = (name: string) =>
  t.post(
    '/api/contract',
    { data: { action: 'create', clientKey: DEMO.clientKey, contract: { name, value: '<p>x</p>' } } },
    { apiKey: DEMO.apiKey },
  );

describe('snapshots', () => {
  it('GET /__sandbox/state answers every record and the clock', async () => {
    await createContract('Kept');
    const res = await t.control('/state');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      format: 'esign-sandbox-state',
      version: 1,
      clock: { now: '2026-03-01T09:00:00.000Z', mode: 'frozen' },
    });
    expect(Object.keys(res.body.store).sort()).toEqual([
      'clients',
      'contracts',
      'placeholders',
      'platforms',
      'recipients',
      'shareLinks',
      'templates',
      'tokens',
      'users',
      'version',
      'webhooks',
    ]);
    expect(Object.values<any>(res.body.store.contracts).map((c) => c.name)).toEqual(['Kept']);
  });

  it('PUT /__sandbox/state puts a snapshot back: records, keys and time', async () => {
    await createContract('Before');
    const snapshot = (await t.control('/state')).body;
    await createContract('After');
    await t.control('/clock/advance', { by: '2h' });
    const res = await t.request('/__sandbox/state', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(snapshot),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'restored', counts: { platforms: 1, clients: 1, contracts: 1 } });
    expect(await contractNames()).toEqual(['Before']);
    expect((await t.control('/clock')).body.now).toBe('2026-03-01T09:00:00.000Z');
    // Indexes are rebuilt: the restored records answer lookups and new records still get added.
    expect((await createContract('Again')).status).toBe(201);
    expect(await contractNames()).toEqual(['Before', 'Again']);
  });

  it('restores into another sandbox', async () => {
    await createContract('Travelling');
    const snapshot = (await t.control('/state')).body;
    const other = await testSandbox();
    const put = await other.request('/__sandbox/state', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(snapshot),
    });
    expect(put.status).toBe(200);
    const res = await other.post(
      '/api/contract',
      { data: { action: 'list', clientKey: DEMO.clientKey } },
      { apiKey: DEMO.apiKey },
    );
    expect(res.body.contracts.map((c: { name: string }) => c.name)).toEqual(['Travelling']);
    expect((await other.control('/clock')).body).toMatchObject({ now: '2026-03-01T09:00:00.000Z', mode: 'frozen' });
    await other.close();
  });

  it('carries what is in flight into another sandbox: a pending retry, a scenario and its timers, faults, tenant clocks', async () => {
    const r = await createWebhookReceiver({ rejectUnverified: false });
    try {
      r.failNext(1, { status: 503 });
      const auth = { apiKey: DEMO.apiKey };
      const hook = await t.post(
        '/api/webhook',
        { data: { action: 'create', clientKey: DEMO.clientKey, webhooks: [{ url: r.url, created: true }] } },
        auth,
      );
      expect(hook.status).toBe(201);
      await createContract('Retried');
      await t.sandbox.services.clocks.sandbox.work.settled();
      const load = await t.control('/scenarios', {
        yaml: 'name: later\ntimeline:\n  - { id: fault, at: 1h, addFaults: [{ id: f, match: { path: /api/none }, status: 500 }] }\n',
      });
      expect(load.status).toBe(201);
      await t.control('/webhook-faults', { kind: 'duplicate', times: 1 });
      const tenant = await t.control('/platforms', { clock: 'frozen', start: '2031-05-01T00:00:00.000Z' });
      await t.control(`/platforms/${tenant.body.apiKey}/clock/advance`, { by: '2h' });
      const [pending] = (await t.control('/webhook-deliveries')).body.deliveries;
      expect(pending).toMatchObject({ status: 'pending', nextAttemptAt: '2026-03-01T09:00:05.000Z' });
      const snapshot = (await t.control('/state')).body;
      expect(Object.keys(snapshot.kept.timers)).toHaveLength(2);

      const other = await testSandbox();
      try {
        const put = await other.request('/__sandbox/state', {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(snapshot),
        });
        expect(put.status).toBe(200);
        expect((await other.control(`/platforms/${tenant.body.apiKey}/clock`)).body).toMatchObject({
          now: '2031-05-01T02:00:00.000Z',
          mode: 'frozen',
        });
        expect((await other.control('/webhook-faults')).body.faults).toMatchObject([{ id: 'rf_1', kind: 'duplicate' }]);
        expect((await other.control('/scenarios/later')).body.pendingTimers).toBe(1);
        const [carried] = (await other.control('/webhook-deliveries')).body.deliveries;
        expect(carried).toMatchObject({
          id: pending.id,
          webhookId: pending.webhookId,
          nextAttemptAt: pending.nextAttemptAt,
        });
        await other.control('/clock/advance', { by: '5s' });
        // The first attempt (503) in the first sandbox, the retry from the one it was restored into, once.
        expect(r.deliveries.map((d) => d.id)).toEqual([pending.webhookId, pending.webhookId]);
        await other.control('/clock/advance', { by: '1h' });
        expect((await other.control('/faults')).body.faults.map((f: any) => f.id)).toEqual(['later:f']);
        expect((await other.control('/scenarios/later')).body.pendingTimers).toBe(0);
        // Nothing of it ran in the first sandbox meanwhile, where it is still pending.
        expect((await t.control('/faults')).body.faults).toEqual([]);
      } finally {
        await other.close();
      }
    } finally {
      await r.close();
    }
  });

  const put = (body: unknown) =>
    t.request('/__sandbox/state', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it.each([
    ['no store', (s: any) => delete s.store, 'store'],
    [
      'a record of the wrong shape',
      (s: any) => (Object.values<any>(s.store.clients)[0].notification = 'yes'),
      'store.clients.demoClient.notification',
    ],
    [
      'a record under another key',
      (s: any) => (s.store.clients.other = { ...s.store.clients.demoClient }),
      'store.clients.other.clientKey',
    ],
    [
      'a user of a client that does not exist',
      (s: any) => delete s.store.clients.demoClient,
      'store.users.demoUser.clientKey',
    ],
    [
      'two platforms with one API key',
      (s: any) => {
        const [p] = Object.values<any>(s.store.platforms);
        s.store.platforms.X = { ...p, platformId: 'X' };
      },
      'store.platforms.X.apiKey',
    ],
    ['a clock time that is not a time', (s: any) => (s.clock.now = 'soon'), 'clock.now'],
  ])('refuses a snapshot with %s, naming the field, and changes nothing', async (_name, spoil, path) => {
    await createContract('Untouched');
    const snapshot = (await t.control('/state')).body;
    spoil(snapshot);
    const res = await put(snapshot);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    expect(await contractNames()).toEqual(['Untouched']);
  });

  it('refuses a body that is not JSON', async () => {
    const res = await t.request('/__sandbox/state', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    expect(res.status).toBe(400);
  });
});

describe('tenants on one sandbox', () => {
  it('POST /__sandbox/platforms gives an isolated platform that sees none of the others', async () => {
    const tenant = (await t.control('/platforms', { name: 'test file A' })).body;
    const token = await t.platformToken({ apiKey: tenant.apiKey, secret: tenant.secret });
    const created = await t.post(
      '/api/client',
      { data: { action: 'create', client: { fullname: 'Tenant client', email: 'a@example.com' } } },
      { bearer: token },
    );
    expect(created.status).toBe(201);
    const foreign = await t.post(
      '/api/contract',
      { data: { action: 'list', clientKey: DEMO.clientKey } },
      { bearer: token },
    );
    expect(foreign.status).toBe(404);
  });

  it("reset with an apiKey empties a created platform's records and leaves everyone else's", async () => {
    const tenant = (await t.control('/platforms', {})).body;
    const token = await t.platformToken({ apiKey: tenant.apiKey, secret: tenant.secret });
    const client = (
      await t.post(
        '/api/client',
        { data: { action: 'create', client: { fullname: 'Gone soon', email: 'g@example.com' } } },
        { bearer: token },
      )
    ).body.client;
    await createContract('Demo keeps this');
    const res = await t.control('/reset', { apiKey: tenant.apiKey });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'reset', scope: 'platform', apiKey: tenant.apiKey, restored: 0 });
    expect(res.body.removed).toBeGreaterThan(1);
    expect(await contractNames()).toEqual(['Demo keeps this']);
    // The platform stays (same credentials); its client and its tokens are gone.
    expect(
      (await t.post('/api/user', { data: { action: 'list', clientKey: client.clientKey } }, { bearer: token })).status,
    ).toBe(401);
    const again = await t.platformToken({ apiKey: tenant.apiKey, secret: tenant.secret });
    expect(
      (await t.post('/api/user', { data: { action: 'list', clientKey: client.clientKey } }, { bearer: again })).status,
    ).toBe(404);
  });

  it("reset with the demo apiKey puts back the demo platform's fixture records only", async () => {
    const tenant = (await t.control('/platforms', {})).body;
    const token = await t.platformToken({ apiKey: tenant.apiKey, secret: tenant.secret });
    await t.post(
      '/api/client',
      { data: { action: 'create', client: { fullname: 'Stays', email: 's@example.com' } } },
      { bearer: token },
    );
    await createContract('Goes');
    const off = await t.post(
      '/api/settings',
      { data: { type: 'email_notifications', clientKey: DEMO.clientKey, notification: { signed: false } } },
      { apiKey: DEMO.apiKey },
    );
    expect(off.status).toBe(201);
    const res = await t.control('/reset', { apiKey: DEMO.apiKey });
    expect(res.body).toMatchObject({ scope: 'platform', apiKey: DEMO.apiKey });
    expect(await contractNames()).toEqual([]);
    const { store } = t.sandbox.services;
    expect(store.clients.get(DEMO.clientKey)?.notification).toEqual({ approved: true, signed: true });
    const template = await t.post(
      '/api/template',
      { data: { action: 'read', clientKey: DEMO.clientKey, template: { templateKey: DEMO.templateKey } } },
      { apiKey: DEMO.apiKey },
    );
    expect(template.status).toBe(200);
    expect(store.clients.where('platform', tenant.platformId)).toHaveLength(1);
  });

  it('tells the other modules which platform was reset', async () => {
    const seen: unknown[] = [];
    t.sandbox.services.bus.on('sandbox.reset', (e) => seen.push(e));
    const tenant = (await t.control('/platforms', {})).body;
    await t.control('/reset', { apiKey: tenant.apiKey });
    await t.control('/reset', {});
    expect(seen).toEqual([{ type: 'sandbox.reset', platformId: tenant.platformId }, { type: 'sandbox.reset' }]);
  });

  it('answers 404 for an apiKey no platform has, without repeating the key (it is a secret the journal would keep)', async () => {
    const res = await t.control('/reset', { apiKey: 'nobody' });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('No platform with this apiKey');
  });
});

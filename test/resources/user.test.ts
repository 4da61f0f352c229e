import { beforeEach, describe, expect, it } from 'vitest';
import { type Auth, DEMO, sandboxEachTest } from '../support/helpers.js';
import { asOutsider, OUTSIDERS, outsiders } from '../support/outsiders.js';

const SQL_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

const t = sandboxEachTest();
let auth: Auth;
beforeEach(async () => {
  auth = await t.demoAuth();
});

const user = (data: object, as: Auth = auth) => t.post('/api/user', { data }, as);

describe('user create', () => {
  it('adds a user, answering 201 with its key and an SQL-format create time; list shows it', async () => {
    const res = await user({ action: 'create', user: { fullname: 'Charles', email: 'c@x.test', customKey: 'c1' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      user: { createTime: '2026-03-01 09:00:00', userKey: expect.stringMatching(/^[A-Za-z0-9]+$/) },
      code: '201',
      message: 'User created',
    });
    const list = await user({ action: 'list' });
    expect(list.body.users.map((u: { userKey: string }) => u.userKey)).toContain(res.body.user.userKey);
  });

  it("keeps the client's default user", async () => {
    await user({ action: 'create', user: { fullname: 'New' } });
    const contract = await t.post(
      '/api/contract',
      { data: { action: 'create', contract: { name: 'x', value: 'y' } } },
      auth,
    );
    expect(t.sandbox.services.store.contracts.get(contract.body.contract.contractKey)!.userKey).toBe(DEMO.userKey);
  });

  it.each([
    ['no field', {}],
    ['only empty fields', { fullname: '', email: '' }],
  ])('refuses %s', async (_n, fields) => {
    expect((await user({ action: 'create', user: fields })).status).toBe(400);
  });

  it.each([
    ['a client token, clientKey omitted', async () => auth, undefined],
    [
      'the API key header with clientKey',
      async () => ({ apiKey: DEMO.apiKey, header: 'x-sendforsign-key' }),
      DEMO.clientKey,
    ],
    ['a platform token with clientKey', async () => ({ bearer: await t.platformToken() }), DEMO.clientKey],
  ])('works with %s', async (_n, as, clientKey) => {
    const res = await user(
      { action: 'create', user: { fullname: 'A' }, ...(clientKey ? { clientKey } : {}) },
      await as(),
    );
    expect(res.status).toBe(201);
  });
});

describe('user read', () => {
  it.each([
    ['key', { userKey: DEMO.userKey }],
    ['email', { email: 'DEMO_EMAIL' }],
  ])('finds a user by %s, answering "200" "User found" with SQL-format times', async (_n, query) => {
    const stored = t.sandbox.services.store.users.get(DEMO.userKey)!;
    const q = JSON.parse(JSON.stringify(query).replace('DEMO_EMAIL', stored.email ?? ''));
    const res = await user({ action: 'read', user: q });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      user: {
        createTime: expect.stringMatching(SQL_TIME),
        changeTime: expect.stringMatching(SQL_TIME),
        userKey: DEMO.userKey,
        fullname: stored.fullname ?? '',
        email: stored.email ?? '',
        customKey: stored.customKey ?? '',
      },
      code: '200',
      message: 'User found',
    });
  });

  it('answers 404 for no match and 400 for no field', async () => {
    expect((await user({ action: 'read', user: { email: 'nobody@x.test' } })).status).toBe(404);
    expect((await user({ action: 'read', user: { userKey: '' } })).status).toBe(400);
  });
});

describe('user update', () => {
  it('changes the given fields, answering 201 with changeTime and userKey', async () => {
    await t.control('/clock/advance', { by: '2m' });
    const res = await user({ action: 'update', user: { userKey: DEMO.userKey, fullname: 'Renamed' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      user: { changeTime: '2026-03-01 09:02:00', userKey: DEMO.userKey },
      code: '201',
      message: 'User updated',
    });
    expect((await user({ action: 'read', user: { userKey: DEMO.userKey } })).body.user.fullname).toBe('Renamed');
  });
});

describe('user operations across tenants', () => {
  it.each([
    ['read', { user: { userKey: DEMO.userKey } }],
    ['update', { user: { userKey: DEMO.userKey, fullname: 'x' } }],
  ])("%s answers 404 for another client's or platform's user", async (action, extra) => {
    const others = await outsiders(t);
    expect(others.map((o) => o.name)).toEqual(OUTSIDERS);
    for (const o of others) {
      const res = await t.post('/api/user', asOutsider(o, { data: { action, ...extra } }), o.auth);
      expect(res.status, o.name).toBe(404);
    }
  });
});

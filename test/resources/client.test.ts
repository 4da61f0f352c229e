import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO, FROZEN, type TestSandbox, testSandbox } from '../support/helpers.js';
import { asOutsider, outsiders } from '../support/outsiders.js';

const SQL_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let t: TestSandbox;
let platform: string;
beforeEach(async () => {
  t = await testSandbox(FROZEN);
  platform = await t.platformToken();
});
afterEach(() => t.close());

describe('client create', () => {
  it('answers 201 with the client key, SQL-format times and the users, the first one default', async () => {
    const res = await t.post(
      '/api/client',
      {
        data: {
          action: 'create',
          client: { fullname: 'Acme', users: [{ fullname: 'A', email: 'a@acme.test' }, { fullname: 'B' }] },
        },
      },
      { bearer: platform },
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ code: '201', message: 'Client created' });
    expect(res.body.client.createTime).toBe('2026-03-01 09:00:00');
    expect(res.body.client.clientKey).toMatch(/^[A-Za-z0-9]+$/);
    expect(res.body.client.users).toEqual([
      { createTime: '2026-03-01 09:00:00', default: true, userKey: expect.stringMatching(/^[A-Za-z0-9]+$/) },
      { createTime: '2026-03-01 09:00:00', default: false, userKey: expect.any(String) },
    ]);
  });

  it('creates one default user when no users are given', async () => {
    const res = await t.post(
      '/api/client',
      { data: { action: 'create', client: { email: 'x@y.test' } } },
      { bearer: platform },
    );
    expect(res.body.client.users).toHaveLength(1);
    expect(res.body.client.users[0].default).toBe(true);
  });

  it('works with the API-key header and no clientKey', async () => {
    const res = await t.post(
      '/api/client',
      { data: { action: 'create', client: { organization: 'Org' } } },
      { apiKey: DEMO.apiKey },
    );
    expect(res.status).toBe(201);
  });

  it.each([
    ['an empty client', { client: {} }, 'data.client'],
    ['no client', {}, 'data.client'],
    ['a client that is a string', { client: 'Acme' }, 'data.client'],
    ['a numeric fullname', { client: { fullname: 7 } }, 'data.client.fullname'],
    ['users that are not an array', { client: { fullname: 'A', users: {} } }, 'data.client.users'],
  ])('refuses %s with 400 naming %s', async (_name, fields, path) => {
    const res = await t.post('/api/client', { data: { action: 'create', ...fields } }, { bearer: platform });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });
});

describe('client read', () => {
  it('answers the client with SQL-format times and all its fields', async () => {
    const res = await t.post(
      '/api/client',
      { data: { action: 'read', client: { clientKey: DEMO.clientKey } } },
      { bearer: platform },
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      client: {
        createTime: '2026-03-01 09:00:00',
        changeTime: '2026-03-01 09:00:00',
        clientKey: DEMO.clientKey,
        fullname: 'Demo Client',
        email: 'demo@example.com',
        organization: 'Demo Corp',
        customKey: '',
      },
      code: '200',
      message: 'Client found',
    });
    expect(res.body.client.createTime).toMatch(SQL_TIME);
  });

  it('answers 404 for an unknown client', async () => {
    const res = await t.post(
      '/api/client',
      { data: { action: 'read', client: { clientKey: 'nope' } } },
      { bearer: platform },
    );
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 404, message: 'Client not found' });
  });

  it('lets a client token read its own client only', async () => {
    const token = await t.clientToken(DEMO.clientKey, platform);
    expect(
      (
        await t.post(
          '/api/client',
          { data: { action: 'read', client: { clientKey: DEMO.clientKey } } },
          { bearer: token },
        )
      ).status,
    ).toBe(200);
    const other = await t.post(
      '/api/client',
      { data: { action: 'create', client: { fullname: 'O' } } },
      { bearer: platform },
    );
    const res = await t.post(
      '/api/client',
      { data: { action: 'read', client: { clientKey: other.body.client.clientKey } } },
      { bearer: token },
    );
    expect(res.status).toBe(403);
  });
});

describe('user list', () => {
  it("lists the client's users with ISO times", async () => {
    const res = await t.post(
      '/api/user',
      { data: { action: 'list', clientKey: DEMO.clientKey } },
      { bearer: platform },
    );
    expect(res.status).toBe(200);
    expect(res.body.code).toBe('200');
    expect(res.body.message).toBe('Users found');
    expect(res.body.users[0]).toEqual({
      createTime: '2026-03-01T09:00:00.000Z',
      changeTime: '2026-03-01T09:00:00.000Z',
      userKey: DEMO.userKey,
      fullname: 'Dana Demo',
      email: 'dana@example.com',
      customKey: '',
    });
    expect(res.body.users[0].createTime).toMatch(ISO_TIME);
  });

  it('needs data.clientKey with a platform token', async () => {
    const res = await t.post('/api/user', { data: { action: 'list' } }, { bearer: platform });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/data.clientKey is required/);
  });
});

describe('client list', () => {
  it('lists the platform\'s clients with ISO times and multiple: true, "200" "Clients found"', async () => {
    await t.post(
      '/api/client',
      { data: { action: 'create', client: { fullname: 'Acme', email: 'a@acme.test' } } },
      { bearer: platform },
    );
    const res = await t.post('/api/client', { data: { action: 'list' } }, { bearer: platform });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe('200');
    expect(res.body.message).toBe('Clients found');
    expect(res.body.clients.map((c: { clientKey: string }) => c.clientKey)).toContain(DEMO.clientKey);
    const acme = res.body.clients.find((c: { fullname: string }) => c.fullname === 'Acme');
    expect(acme).toEqual({
      createTime: expect.stringMatching(ISO_TIME),
      changeTime: expect.stringMatching(ISO_TIME),
      clientKey: expect.any(String),
      fullname: 'Acme',
      email: 'a@acme.test',
      organization: '',
      customKey: '',
      multiple: true,
    });
  });

  it.each([
    ['the API key header X-Sendforsign-Key', { apiKey: DEMO.apiKey, header: 'x-sendforsign-key' }],
    ['the API key header X-Service-Key', { apiKey: DEMO.apiKey }],
  ])('works with %s', async (_n, auth) => {
    expect((await t.post('/api/client', { data: { action: 'list' } }, auth)).status).toBe(200);
  });

  it("refuses a client token (403) and never shows another platform's clients", async () => {
    expect((await t.post('/api/client', { data: { action: 'list' } }, { bearer: await t.clientToken() })).status).toBe(
      403,
    );
    const other = await t.control('/platforms', { apiKey: 'otherPlatform', secret: 's' });
    const res = await t.post('/api/client', { data: { action: 'list' } }, { apiKey: other.body.apiKey });
    expect(res.body.clients).toEqual([]);
  });
});

describe('client update', () => {
  it('changes the given fields, answering 201 with changeTime and clientKey', async () => {
    await t.control('/clock/advance', { by: '1m' });
    const res = await t.post(
      '/api/client',
      { data: { action: 'update', client: { clientKey: DEMO.clientKey, organization: 'New Org' } } },
      { bearer: platform },
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      client: { changeTime: '2026-03-01 09:01:00', clientKey: DEMO.clientKey },
      code: '201',
      message: 'Client updated',
    });
    const read = await t.post(
      '/api/client',
      { data: { action: 'read', client: { clientKey: DEMO.clientKey } } },
      { bearer: platform },
    );
    expect(read.body.client).toMatchObject({ organization: 'New Org', fullname: expect.any(String) });
  });

  it('answers 404 for a client of another platform, and 403 for a client token of another client', async () => {
    const other = await t.control('/platforms', { apiKey: 'otherPlatform2', secret: 's' });
    const res = await t.post(
      '/api/client',
      { data: { action: 'update', client: { clientKey: DEMO.clientKey, fullname: 'x' } } },
      { apiKey: other.body.apiKey },
    );
    expect(res.status).toBe(404);
    const [sibling] = (await outsiders(t)).filter((o) => o.clientKey === undefined);
    const res2 = await t.post(
      '/api/client',
      asOutsider(sibling!, { data: { action: 'update', client: { clientKey: DEMO.clientKey, fullname: 'x' } } }),
      sibling!.auth,
    );
    expect(res2.status).toBe(403);
  });
});

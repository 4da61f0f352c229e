import { describe, expect, it } from 'vitest';
import { DEMO, testSandbox, sandboxEachTest } from '../support/helpers.js';

const t = sandboxEachTest();

describe('platform token', () => {
  it('is issued for the platform API key and secret, with only the three token fields', async () => {
    const res = await t.post('/api/token', { data: { action: 'create', apiKey: DEMO.apiKey, secret: DEMO.secret } });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['access_token', 'expires_in', 'token_type']);
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 1800 });
    expect(res.body.access_token).toMatch(/^[A-Za-z0-9]+$/);
  });

  it.each([
    ['a wrong secret', { apiKey: DEMO.apiKey, secret: 'nope' }],
    ['an unknown API key', { apiKey: 'nope', secret: DEMO.secret }],
  ])('is refused with %s', async (_name, creds) => {
    const res = await t.post('/api/token', { data: { action: 'create', ...creds } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 401, message: 'Invalid API key or secret' });
  });

  it('needs apiKey and secret, and says so field by field', async () => {
    const res = await t.post('/api/token', { data: { action: 'create' } });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['data.apiKey', 'data.secret']);
  });

  it("expires after 1800 seconds of sandbox time with the spec's exact body", async () => {
    const token = await t.platformToken();
    await t.control('/clock/advance', { by: 1799 });
    expect(
      (await t.post('/api/user', { data: { action: 'list', clientKey: DEMO.clientKey } }, { bearer: token })).status,
    ).toBe(200);
    await t.control('/clock/advance', { by: '1s' });
    const res = await t.post('/api/user', { data: { action: 'list', clientKey: DEMO.clientKey } }, { bearer: token });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 401, message: 'Token expired' });
  });

  it('is revoked by itself with a numeric code 201, and is then refused', async () => {
    const token = await t.platformToken();
    const res = await t.post('/api/token', { action: 'revoke' }, { bearer: token });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ code: 201, message: 'Token revoked' });
    const after = await t.post('/api/user', { data: { action: 'list', clientKey: DEMO.clientKey } }, { bearer: token });
    expect(after.body).toEqual({ code: 401, message: 'Token revoked' });
  });
});

describe('client token', () => {
  it('is created with a platform token and acts for its client without data.clientKey', async () => {
    const token = await t.clientToken();
    const res = await t.post('/api/user', { data: { action: 'list' } }, { bearer: token });
    expect(res.status).toBe(200);
    expect(res.body.users.length).toBe(2);
  });

  it('is refused (403) when data.clientKey names another client', async () => {
    const platform = await t.platformToken();
    const other = await t.post(
      '/api/client',
      { data: { action: 'create', client: { fullname: 'Other' } } },
      { bearer: platform },
    );
    const token = await t.clientToken(DEMO.clientKey, platform);
    const res = await t.post(
      '/api/user',
      { data: { action: 'list', clientKey: other.body.client.clientKey } },
      { bearer: token },
    );
    expect(res.status).toBe(403);
  });

  it('cannot create tokens or clients', async () => {
    const token = await t.clientToken();
    expect(
      (await t.post('/api/token', { action: 'create', clientKey: DEMO.clientKey }, { bearer: token })).status,
    ).toBe(403);
    expect(
      (await t.post('/api/client', { data: { action: 'create', client: { fullname: 'x' } } }, { bearer: token }))
        .status,
    ).toBe(403);
  });

  it('is revoked by the platform token that names it', async () => {
    const platform = await t.platformToken();
    const token = await t.clientToken(DEMO.clientKey, platform);
    const res = await t.post('/api/token', { action: 'revoke', access_token: token }, { bearer: platform });
    expect(res.body).toEqual({ code: 201, message: 'Token revoked' });
    expect((await t.post('/api/user', { data: { action: 'list' } }, { bearer: token })).body).toEqual({
      code: 401,
      message: 'Token revoked',
    });
  });

  it('is not found for an unknown client', async () => {
    const res = await t.post(
      '/api/token',
      { action: 'create', clientKey: 'nope' },
      { bearer: await t.platformToken() },
    );
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Client not found');
  });

  it('can be force-expired through the control API', async () => {
    const token = await t.clientToken();
    const res = await t.control('/tokens/expire', { token });
    expect(res.body).toEqual({ expired: 1 });
    expect((await t.post('/api/user', { data: { action: 'list' } }, { bearer: token })).body).toEqual({
      code: 401,
      message: 'Token expired',
    });
  });
});

describe('credentials', () => {
  it.each([
    ['no credentials', {}, /Missing credentials/],
    ['a malformed Authorization header', { authorization: 'Basic abc' }, /Bearer/],
    ['an unknown token', { authorization: 'Bearer nope' }, /Invalid access token/],
  ])('answers 401 for %s', async (_name, headers, message) => {
    const res = await t.request('/api/user', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ data: { action: 'list', clientKey: DEMO.clientKey } }),
    });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(401);
    expect(res.body.message).toMatch(message);
  });

  it.each([['x-service-key'], ['x-sendforsign-key']])(
    'answers 403 for an unknown API key in %s, as the real service documents',
    async (header) => {
      const res = await t.request('/api/user', {
        method: 'POST',
        headers: { 'content-type': 'application/json', [header]: 'nope' },
        body: JSON.stringify({ data: { action: 'list', clientKey: DEMO.clientKey } }),
      });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ code: 403, message: 'Invalid API key: no platform has this key' });
    },
  );

  it.each([
    ['X-Service-Key', 'application/json'],
    ['X-Sendforsign-Key', 'application/json'],
    ['X-Sendforsign-Key', 'application/vnd.api+json'],
  ])('accepts the API key in %s with a %s body, as real clients send it', async (header, type) => {
    const res = await t.request('/api/user', {
      method: 'POST',
      headers: { 'content-type': type, accept: 'application/vnd.api+json', [header]: DEMO.apiKey },
      body: JSON.stringify({ data: { action: 'list', clientKey: DEMO.clientKey } }),
    });
    expect(res.status).toBe(200);
  });

  it('accepts the API-key header with data.clientKey, and needs the clientKey', async () => {
    const ok = await t.post(
      '/api/user',
      { data: { action: 'list', clientKey: DEMO.clientKey } },
      { apiKey: DEMO.apiKey },
    );
    expect(ok.status).toBe(200);
    const missing = await t.post('/api/user', { data: { action: 'list' } }, { apiKey: DEMO.apiKey });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([{ path: 'data.clientKey', message: 'Required' }]);
  });

  it("takes the API key in a header of the user's choosing", async () => {
    const custom = await testSandbox({ apiKeyHeader: 'X-Provider-Key' });
    try {
      const res = await custom.post(
        '/api/user',
        { data: { action: 'list', clientKey: DEMO.clientKey } },
        { apiKey: DEMO.apiKey, header: 'x-provider-key' },
      );
      expect(res.status).toBe(200);
    } finally {
      await custom.close();
    }
  });

  it("keeps platforms apart: another platform's client answers 404", async () => {
    const other = (await t.control('/platforms', {})).body;
    const token = await t.platformToken({ apiKey: other.apiKey, secret: other.secret });
    const res = await t.post('/api/user', { data: { action: 'list', clientKey: DEMO.clientKey } }, { bearer: token });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Client not found');
  });
});

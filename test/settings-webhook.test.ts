import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Auth, FROZEN, type TestSandbox, testSandbox } from './helpers.js';

let t: TestSandbox;
let auth: Auth;
beforeEach(async () => {
  t = await testSandbox(FROZEN);
  auth = await t.demoAuth();
});
afterEach(() => t.close());

describe('settings', () => {
  it('switches email notifications, selected by data.type', async () => {
    const res = await t.post('/api/settings', { data: { type: 'email_notifications', notification: { approved: false, signed: false } } }, auth);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ code: '201', message: 'Settings updated' });
    expect(t.sandbox.services.store.clients.get('demoClient')!.notification).toEqual({ approved: false, signed: false });
  });

  it.each([
    ['an unknown type', { type: 'sms' }, /Unknown type "sms" for \/api\/settings; valid types: email_notifications/],
    ['no type', { notification: { signed: true } }, /data.type is required/],
    ['a non-boolean flag', { type: 'email_notifications', notification: { signed: 'no' } }, /data.notification.signed/],
  ])('refuses %s', async (_name, data, message) => {
    const res = await t.post('/api/settings', { data }, auth);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });
});

describe('webhooks', () => {
  const hook = { url: 'https://example.test/hook', created: true, signed: true };

  it('creates webhooks with a Standard Webhooks secret and ISO time', async () => {
    const res = await t.post('/api/webhook', { data: { action: 'create', webhooks: [hook] } }, auth);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      webhooks: [{ createTime: '2026-03-01T09:00:00.000Z', url: hook.url, secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/), webhookKey: expect.any(String) }],
      code: '201',
      message: 'Webhooks created',
    });
    expect(Buffer.from(res.body.webhooks[0].secret.slice(6), 'base64')).toHaveLength(24);
  });

  it('lists with every field and answers 201, as the service does', async () => {
    await t.post('/api/webhook', { data: { action: 'create', webhooks: [hook] } }, auth);
    const res = await t.post('/api/webhook', { data: { action: 'list' } }, auth);
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Webhooks found');
    expect(res.body.webhooks[0]).toEqual({
      webhookKey: expect.any(String),
      url: hook.url,
      secret: expect.stringMatching(/^whsec_/),
      created: true,
      seen: false,
      sent: false,
      approved: false,
      signed: true,
      fullySigned: false,
      createTime: '2026-03-01T09:00:00.000Z',
      changeTime: '2026-03-01T09:00:00.000Z',
    });
  });

  it('deletes webhooks by key, and refuses unknown keys without deleting any', async () => {
    const created = await t.post('/api/webhook', { data: { action: 'create', webhooks: [hook, hook] } }, auth);
    const [a, b] = created.body.webhooks.map((w: { webhookKey: string }) => w.webhookKey);
    const bad = await t.post('/api/webhook', { data: { action: 'delete', webhooks: [{ webhookKey: a }, { webhookKey: 'nope' }] } }, auth);
    expect(bad.status).toBe(404);
    const res = await t.post('/api/webhook', { data: { action: 'delete', webhooks: [{ webhookKey: a }] } }, auth);
    expect(res.body).toEqual({ webhooks: [{ webhookKey: a }], code: '201', message: 'Webhooks deleted' });
    const list = await t.post('/api/webhook', { data: { action: 'list' } }, auth);
    expect(list.body.webhooks.map((w: { webhookKey: string }) => w.webhookKey)).toEqual([b]);
  });

  it.each([
    ['no url', [{ created: true }], 'data.webhooks.0.url'],
    ['an ftp url', [{ url: 'ftp://x.test' }], 'data.webhooks.0.url'],
    ['a non-boolean flag', [{ url: 'https://x.test', signed: 'yes' }], 'data.webhooks.0.signed'],
    ['an empty list', [], 'data.webhooks'],
  ])('refuses create with %s', async (_name, webhooks, path) => {
    const res = await t.post('/api/webhook', { data: { action: 'create', webhooks } }, auth);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });
});

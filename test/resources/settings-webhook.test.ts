import { beforeEach, describe, expect, it } from 'vitest';
import { type Auth, sandboxEachTest } from '../support/helpers.js';
import { asOutsider, OUTSIDERS, outsiders } from '../support/outsiders.js';

const t = sandboxEachTest();
let auth: Auth;
beforeEach(async () => {
  auth = await t.demoAuth();
});

describe('settings', () => {
  it('switches email notifications, selected by data.type', async () => {
    const res = await t.post(
      '/api/settings',
      { data: { type: 'email_notifications', notification: { approved: false, signed: false } } },
      auth,
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ code: '201', message: 'Settings updated' });
    expect(t.sandbox.services.store.clients.get('demoClient')!.notification).toEqual({
      approved: false,
      signed: false,
    });
  });

  it.each([
    [
      'an unknown type',
      { type: 'sms' },
      /Unknown type "sms" for \/api\/settings; valid types: email_notifications, brandings/,
    ],
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
      webhooks: [
        {
          createTime: '2026-03-01T09:00:00.000Z',
          url: hook.url,
          secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
          webhookKey: expect.any(String),
        },
      ],
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
    const bad = await t.post(
      '/api/webhook',
      { data: { action: 'delete', webhooks: [{ webhookKey: a }, { webhookKey: 'nope' }] } },
      auth,
    );
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

describe('settings brandings', () => {
  it('stores the branding, answering "201" "Settings updated"', async () => {
    const branding = {
      emailFrom: 'Acme Legal',
      emailExplainer: 'Please sign',
      emailLogo: 'https://acme.test/logo.png',
      emailButtonColor: '#1677ff',
      recipientPageBranding: true,
    };
    const res = await t.post('/api/settings', { data: { type: 'brandings', branding } }, auth);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ code: '201', message: 'Settings updated' });
    await t.post('/api/settings', { data: { type: 'brandings', branding: { emailFrom: 'Acme' } } }, auth);
    expect(t.sandbox.services.store.clients.get('demoClient')!.branding).toEqual({ ...branding, emailFrom: 'Acme' });
  });

  it.each([
    ['a colour that is not hex', { emailButtonColor: 'blue' }, 'data.branding.emailButtonColor'],
    ['a logo that is not a URL', { emailLogo: 'logo.png' }, 'data.branding.emailLogo'],
  ])('refuses %s', async (_n, branding, path) => {
    const res = await t.post('/api/settings', { data: { type: 'brandings', branding } }, auth);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe(path);
  });
});

describe('webhook read and update', () => {
  const create = async () =>
    (
      await t.post(
        '/api/webhook',
        { data: { action: 'create', webhooks: [{ url: 'https://a.test/h', created: true, seen: true }] } },
        auth,
      )
    ).body.webhooks[0].webhookKey as string;

  it('reads webhooks by key with the list item shape, answering "201" "Webhooks read"', async () => {
    const webhookKey = await create();
    const res = await t.post('/api/webhook', { data: { action: 'read', webhooks: [{ webhookKey }] } }, auth);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      webhooks: [
        {
          webhookKey,
          url: 'https://a.test/h',
          secret: expect.stringMatching(/^whsec_/),
          created: true,
          seen: true,
          sent: false,
          approved: false,
          signed: false,
          fullySigned: false,
          createTime: '2026-03-01T09:00:00.000Z',
          changeTime: '2026-03-01T09:00:00.000Z',
        },
      ],
      code: '201',
      message: 'Webhooks read',
    });
  });

  it('changes only the given fields, answering "201" "Webhooks updated" with key and changeTime', async () => {
    const webhookKey = await create();
    await t.control('/clock/advance', { by: '1m' });
    const res = await t.post(
      '/api/webhook',
      { data: { action: 'update', webhooks: [{ webhookKey, seen: false, signed: true }] } },
      auth,
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      webhooks: [{ webhookKey, changeTime: '2026-03-01T09:01:00.000Z' }],
      code: '201',
      message: 'Webhooks updated',
    });
    const read = await t.post('/api/webhook', { data: { action: 'read', webhooks: [{ webhookKey }] } }, auth);
    expect(read.body.webhooks[0]).toMatchObject({ url: 'https://a.test/h', created: true, seen: false, signed: true });
  });

  it('refuses an unknown key without changing any, and a bad URL', async () => {
    const webhookKey = await create();
    expect(
      (
        await t.post(
          '/api/webhook',
          { data: { action: 'update', webhooks: [{ webhookKey, seen: false }, { webhookKey: 'nope' }] } },
          auth,
        )
      ).status,
    ).toBe(404);
    expect(t.sandbox.services.store.webhooks.get(webhookKey)!.seen).toBe(true);
    expect(
      (await t.post('/api/webhook', { data: { action: 'update', webhooks: [{ webhookKey, url: 'ftp://x' }] } }, auth))
        .status,
    ).toBe(400);
  });

  it.each(['read', 'update'])("%s answers 404 for another client's or platform's webhook", async (action) => {
    const webhookKey = await create();
    const others = await outsiders(t);
    expect(others.map((o) => o.name)).toEqual(OUTSIDERS);
    for (const o of others) {
      const res = await t.post(
        '/api/webhook',
        asOutsider(o, { data: { action, webhooks: [{ webhookKey, seen: false }] } }),
        o.auth,
      );
      expect(res.status, o.name).toBe(404);
    }
  });
});

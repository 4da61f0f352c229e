import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Auth, DEMO, FROZEN, type TestSandbox, testSandbox } from '../support/helpers.js';
import { asOutsider, OUTSIDERS, outsiders } from '../support/outsiders.js';

let t: TestSandbox;
let auth: Auth;
let contractKey: string;
beforeEach(async () => {
  t = await testSandbox(FROZEN);
  auth = await t.demoAuth();
  contractKey = (
    await t.post('/api/contract', { data: { action: 'create', contract: { name: 'Deal', value: '<p>x</p>' } } }, auth)
  ).body.contract.contractKey;
});
afterEach(() => t.close());

const send = (recipients?: object[], key = contractKey) =>
  t.post('/api/recipient', { data: { action: 'send', contractKey: key, ...(recipients ? { recipients } : {}) } }, auth);
const list = async () =>
  (await t.post('/api/recipient', { data: { action: 'list', contractKey } }, auth)).body.recipients;

describe('recipient send', () => {
  it('adds recipients and answers result true with "Contract sent"', async () => {
    const res = await send([
      { fullname: 'Ann', email: 'ann@x.test', action: 'sign', position: 1, customMessage: 'Please sign' },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: true, code: '200', message: 'Contract sent' });
  });

  it('lists recipients with id and position as strings, name for fullname, ISO times', async () => {
    await send([{ fullname: 'Ann', email: 'ann@x.test', action: 'approve', position: 2 }, { email: 'bo@x.test' }]);
    const recipients = await list();
    expect(recipients[0]).toEqual({
      recipientKey: expect.stringMatching(/^[A-Za-z0-9]+$/),
      id: '1',
      name: 'Ann',
      fullname: 'Ann',
      email: 'ann@x.test',
      customMessage: '',
      position: '2',
      action: 'approve',
      clientKey: 'demoClient',
      createTime: '2026-03-01T09:00:00.000Z',
      changeTime: '2026-03-01T09:00:00.000Z',
    });
    expect(recipients[1]).toMatchObject({ id: '2', action: 'sign' });
    expect(recipients[1]).not.toHaveProperty('position');
  });

  it('creates the four special placeholders of every recipient', async () => {
    await send([{ email: 'ann@x.test' }]);
    const [r] = await list();
    const keys = t.sandbox.services.store.placeholders
      .where('contract', contractKey)
      .map((p) => [p.placeholderKey, p.specialType]);
    expect(keys).toEqual([1, 2, 3, 4].map((n) => [`${r.recipientKey}_${n}`, n]));
  });

  it('updates an existing recipient named by recipientKey instead of adding one', async () => {
    await send([{ email: 'ann@x.test' }]);
    const [r] = await list();
    await send([{ recipientKey: r.recipientKey, fullname: 'Ann Renamed' }]);
    const after = await list();
    expect(after).toHaveLength(1);
    expect(after[0].name).toBe('Ann Renamed');
  });

  it('sends to recipients added earlier when data.recipients is absent', async () => {
    await send([{ email: 'ann@x.test' }]);
    expect((await send()).status).toBe(200);
  });

  it('answers 409 when the contract has no recipients', async () => {
    const res = await send();
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/no recipients/);
  });

  it.each([
    ['an invalid email', [{ email: 'not-an-email' }], 'data.recipients.0.email'],
    ['an unknown role', [{ email: 'a@b.test', action: 'notarise' }], 'data.recipients.0.action'],
    ['a position that is not a number', [{ email: 'a@b.test', position: 'first' }], 'data.recipients.0.position'],
    ['a fractional position', [{ email: 'a@b.test', position: 1.5 }], 'data.recipients.0.position'],
    ['recipients that are an object', { email: 'a@b.test' }, 'data.recipients'],
  ])('refuses %s with 400 naming %s', async (_name, recipients, path) => {
    const res = await t.post('/api/recipient', { data: { action: 'send', contractKey, recipients } }, auth);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it('takes position "1" as the list answers it, and the components echo it back', async () => {
    expect((await send([{ email: 'echo@x.test', position: '2', id: '1' }])).status).toBe(200);
    expect((await list()).map((r: { position: string }) => r.position)).toEqual(['2']);
  });

  it('answers 404 for an unknown recipientKey and changes nothing', async () => {
    const res = await send([{ email: 'new@x.test' }, { recipientKey: 'nope', fullname: 'x' }]);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Recipient not found');
    expect(await list()).toEqual([]);
  });

  it('answers 404 for an unknown contract', async () => {
    expect((await send([{ email: 'a@b.test' }], 'nope')).body).toEqual({ code: 404, message: 'Contract not found' });
  });

  it('refuses to send an archived contract with 409', async () => {
    await t.post('/api/contract', { data: { action: 'archive', contract: { contractKey } } }, auth);
    const res = await send([{ email: 'a@b.test' }]);
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/archived/);
  });
});

describe('recipient update', () => {
  it('changes only the fields sent and answers an ISO changeTime with code 201', async () => {
    await send([{ fullname: 'Ann', email: 'ann@x.test', position: 1 }]);
    const [r] = await list();
    await t.sandbox.services.clocks.sandbox.advance(5_000);
    const res = await t.post(
      '/api/recipient',
      { data: { action: 'update', contractKey, recipient: { recipientKey: r.recipientKey, position: 3 } } },
      auth,
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      recipient: { changeTime: '2026-03-01T09:00:05.000Z' },
      code: '201',
      message: 'Recipient updated',
    });
    const [after] = await list();
    expect(after).toMatchObject({ name: 'Ann', email: 'ann@x.test', position: '3' });
  });

  it('needs data.recipient.recipientKey', async () => {
    const res = await t.post('/api/recipient', { data: { action: 'update', contractKey, recipient: {} } }, auth);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: 'data.recipient.recipientKey', message: 'Required' }]);
  });
});

describe('recipient delete', () => {
  it('removes the recipient and its special placeholders', async () => {
    await send([{ email: 'ann@x.test' }, { email: 'bo@x.test' }]);
    const [ann] = await list();
    const res = await t.post(
      '/api/recipient',
      { data: { action: 'delete', contractKey, recipient: { recipientKey: ann.recipientKey } } },
      auth,
    );
    expect(res.body).toEqual({ result: true, code: '200', message: 'Recipient deleted' });
    expect((await list()).map((r: { email: string }) => r.email)).toEqual(['bo@x.test']);
    expect(t.sandbox.services.store.placeholders.get(`${ann.recipientKey}_1`)).toBeUndefined();
  });

  it('answers 404 for a recipient of another contract', async () => {
    await send([{ email: 'ann@x.test' }]);
    const [ann] = await list();
    const other = (
      await t.post('/api/contract', { data: { action: 'create', contract: { name: 'B', value: 'x' } } }, auth)
    ).body.contract.contractKey;
    const res = await t.post(
      '/api/recipient',
      { data: { action: 'delete', contractKey: other, recipient: { recipientKey: ann.recipientKey } } },
      auth,
    );
    expect(res.status).toBe(404);
  });
});

describe('recipient create', () => {
  const add = (recipients: object[], extra: object = {}, as: Auth = auth) =>
    t.post('/api/recipient', { data: { action: 'create', contractKey, recipients, ...extra } }, as);

  it('adds recipients without sending, answering result true with "Recipient created"', async () => {
    const res = await add([{ fullname: 'Ann', email: 'ann@x.test', action: 'sign', position: 1, customMessage: 'Hi' }]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: true, code: '200', message: 'Recipient created' });
    const read = await t.post('/api/contract', { data: { action: 'read', contract: { contractKey } } }, auth);
    expect(read.body.contract.status).toBe('Created');
    expect((await t.control('/emails')).body.emails).toEqual([]);
  });

  it('gives each new recipient its four special placeholders sharing one id', async () => {
    await add([{ email: 'a@x.test' }, { email: 'b@x.test' }]);
    const [a] = await list();
    const res = await t.request('/api/placeholder', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${(auth as { bearer: string }).bearer}`,
        'x-sendforsign-component': 'true',
      },
      body: JSON.stringify({ data: { action: 'list', contractKey } }),
    });
    const specials = res.body.placeholders.filter(
      (p: { externalRecipientKey: string }) => p.externalRecipientKey === a.recipientKey,
    );
    expect(specials.map((p: { placeholderKey: string }) => p.placeholderKey)).toEqual(
      [1, 2, 3, 4].map((n) => `${a.recipientKey}_${n}`),
    );
    expect(new Set(specials.map((p: { id: string }) => p.id)).size).toBe(1);
  });

  it('is sent later by send without recipients', async () => {
    await add([{ email: 'a@x.test' }]);
    expect((await send()).status).toBe(200);
    const read = await t.post('/api/contract', { data: { action: 'read', contract: { contractKey } } }, auth);
    expect(read.body.contract.status).toBe('Sent');
  });

  it.each([
    [
      "the components' shape (type, id 0, empty userKey)",
      [{ fullname: 'A', email: 'a@x.test', action: 'sign', position: 1, type: 'external', id: 0 }],
      { userKey: '' },
    ],
    ['a numeric type', [{ email: 'a@x.test', type: 1 }], {}],
    ['an empty recipientKey', [{ email: 'a@x.test', recipientKey: '' }], {}],
  ])('takes %s', async (_n, recipients, extra) => {
    expect((await add(recipients, extra)).status).toBe(200);
    expect(await list()).toHaveLength(1);
  });

  it.each([
    ['an empty list', [], 'data.recipients'],
    ['no email', [{ fullname: 'A' }], 'data.recipients.0.email'],
    ['an existing recipientKey', [{ recipientKey: 'x', email: 'a@x.test' }], 'data.recipients'],
    ['an unknown type', [{ email: 'a@x.test', type: 'robot' }], 'data.recipients.0.type'],
  ])('refuses %s', async (_n, recipients, path) => {
    const res = await add(recipients);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it('refuses an archived contract (409)', async () => {
    await t.post('/api/contract', { data: { action: 'archive', contract: { contractKey } } }, auth);
    expect((await add([{ email: 'a@x.test' }])).status).toBe(409);
  });

  it('works with the API key header and the platform token, clientKey in the body', async () => {
    expect(
      (
        await add(
          [{ email: 'a@x.test' }],
          { clientKey: DEMO.clientKey },
          { apiKey: DEMO.apiKey, header: 'x-sendforsign-key' },
        )
      ).status,
    ).toBe(200);
    expect(
      (await add([{ email: 'b@x.test' }], { clientKey: DEMO.clientKey }, { bearer: await t.platformToken() })).status,
    ).toBe(200);
    expect(await list()).toHaveLength(2);
  });
});

describe('recipient list with getShareLinks', () => {
  it("adds each recipient's share link (its key), whether it is done, and its type", async () => {
    await send([{ fullname: 'Ann', email: 'ann@x.test', type: 'internal' }, { email: 'bo@x.test' }]);
    const [ann] = await list();
    await t.control(`/recipients/${ann.recipientKey}/sign`, {});
    const res = await t.post(
      '/api/recipient',
      { data: { action: 'list', contractKey, userKey: DEMO.userKey, getShareLinks: true } },
      auth,
    );
    expect(
      res.body.recipients.map((r: Record<string, unknown>) => [r.shareLink === r.recipientKey, r.isDone, r.type]),
    ).toEqual([
      [true, true, '1'],
      [true, false, '2'],
    ]);
  });

  it('leaves the share link fields out without getShareLinks', async () => {
    await send([{ email: 'bo@x.test' }]);
    expect((await list())[0]).not.toHaveProperty('shareLink');
  });
});

describe('recipient operations across tenants', () => {
  it.each([
    ['create', { recipients: [{ email: 'a@x.test' }] }],
    ['list', { getShareLinks: true }],
  ])("%s answers 404 for another client's or platform's contract", async (action, extra) => {
    const others = await outsiders(t);
    expect(others.map((o) => o.name)).toEqual(OUTSIDERS);
    for (const o of others) {
      const res = await t.post('/api/recipient', asOutsider(o, { data: { action, contractKey, ...extra } }), o.auth);
      expect(res.status, o.name).toBe(404);
      expect(res.body.message).toBe('Contract not found');
    }
  });
});

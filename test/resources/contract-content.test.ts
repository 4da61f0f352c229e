import { beforeEach, describe, expect, it } from 'vitest';
import { type Auth, DEMO, sandboxEachTest } from '../support/helpers.js';

const t = sandboxEachTest();
let auth: Auth;
beforeEach(async () => {
  auth = await t.demoAuth();
});

const create = (contract: object, extra: object = {}) =>
  t.post('/api/contract', { data: { action: 'create', contract, ...extra } }, auth);

describe('contract create and fill', () => {
  const templateWithPlaceholder = async () => {
    const tpl = await t.post(
      '/api/template',
      {
        data: {
          action: 'create',
          template: { name: 'T', value: '<p>Price: <placeholder1>price</placeholder1></p>' },
          placeholders: [{ name: 'price', value: '' }],
        },
      },
      auth,
    );
    const list = await t.post(
      '/api/placeholder',
      { data: { action: 'list', templateKey: tpl.body.template.templateKey } },
      auth,
    );
    return {
      templateKey: tpl.body.template.templateKey as string,
      placeholderKey: list.body.placeholders[0].placeholderKey as string,
    };
  };

  it.each([
    ['the template placeholder key', 'key'],
    ['the placeholder name', 'name'],
  ])('fills from a template by %s and returns the filled HTML with returnValue', async (_n, by) => {
    const { templateKey, placeholderKey } = await templateWithPlaceholder();
    const item = by === 'key' ? { placeholderKey, value: '100 EUR' } : { name: 'price', value: '100 EUR' };
    const res = await create({ name: 'Filled', templateKey }, { placeholders: [item], returnValue: true });
    expect(res.status).toBe(201);
    expect(res.body.contract.contractValue).toBe('<p>Price: <placeholder1>100 EUR</placeholder1></p>');
    const list = await t.post(
      '/api/placeholder',
      { data: { action: 'list', contractKey: res.body.contract.contractKey } },
      auth,
    );
    expect(list.body.placeholders.map((p: { name: string; value: string }) => [p.name, p.value])).toEqual([
      ['price', '100 EUR'],
    ]);
  });

  it.each([
    ['a number', 42, '42'],
    ['a string', '42', '42'],
  ])('takes a value given as %s', async (_n, value, stored) => {
    const res = await create(
      { name: 'C', value: '<p><placeholder1></placeholder1></p>' },
      { placeholders: [{ name: 'qty', value }], returnValue: true },
    );
    expect(res.body.contract.contractValue).toBe(`<p><placeholder1>${stored}</placeholder1></p>`);
  });

  it('fills a table value and escapes HTML in values', async () => {
    const res = await create(
      { name: 'C', value: '<placeholder1></placeholder1><placeholder2></placeholder2>' },
      {
        placeholders: [
          { name: 'items', table: { columns: ['a'], rows: [[1]] } },
          { name: 'x', value: '<b>' },
        ],
        returnValue: true,
      },
    );
    expect(res.body.contract.contractValue).toBe(
      '<placeholder1><table><thead><tr><th>a</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table></placeholder1><placeholder2>&lt;b&gt;</placeholder2>',
    );
  });

  it('refuses a placeholder filled with both a value and a table', async () => {
    const item = { name: 'items', value: 'x', table: { columns: ['a'], rows: [[1]] } };
    const res = await create({ name: 'C', value: '<placeholder1></placeholder1>' }, { placeholders: [item] });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: 'data.placeholders.0.table', message: 'Give value or table, not both' }]);
  });

  it('answers no contractValue without returnValue', async () => {
    const res = await create({ name: 'C', value: 'x' }, { placeholders: [{ name: 'a', value: 'b' }] });
    expect(res.body.contract).not.toHaveProperty('contractValue');
  });

  it('refuses an unknown placeholderKey, creating nothing', async () => {
    const before = t.sandbox.services.store.contracts.all().length;
    const res = await create({ name: 'C', value: 'x' }, { placeholders: [{ placeholderKey: 'nope', value: 'b' }] });
    expect(res.status).toBe(404);
    expect(t.sandbox.services.store.contracts.all().length).toBe(before + 1);
  });

  it('takes a contract with only a contractType (pre-created, finished by update)', async () => {
    const res = await create({ name: 'Draft', contractType: 'empty' });
    expect(res.status).toBe(201);
  });

  it.each([
    ['userKey', { userKey: '' }],
    ['templateKey', {}],
  ])('takes an empty %s as absent', async (_n, extra) => {
    const res = await create({ name: 'C', value: 'x', templateKey: '' }, extra);
    expect(res.status).toBe(201);
  });
});

describe('contract update', () => {
  const update = (contract: object, extra: object = {}) =>
    t.post('/api/contract', { data: { action: 'update', contract, ...extra } }, auth);

  it('renames and changes the value, answering code 201 as a number (the components compare it) with the times', async () => {
    const key = (await create({ name: 'Old', value: 'a' })).body.contract.contractKey;
    await t.control('/clock/advance', { by: '1m' });
    const res = await update({ contractKey: key, name: 'New', value: '<p>b</p>' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      contract: { createTime: '2026-03-01 09:00:00', changeTime: '2026-03-01 09:01:00', contractKey: key },
      code: 201,
      message: 'Contract updated',
    });
    const read = await t.post('/api/contract', { data: { action: 'read', contract: { contractKey: key } } }, auth);
    expect(read.body.contract).toMatchObject({ name: 'New', value: '<p>b</p>' });
  });

  it('finishes a pre-created contract with a template, placeholders and recipients (added, not sent)', async () => {
    const key = (await create({ name: 'Draft', contractType: 'empty' })).body.contract.contractKey;
    const res = await update(
      { contractKey: key, templateKey: DEMO.templateKey, contractType: 'docx' },
      {
        placeholders: [{ name: 'city', value: 'Paris' }],
        recipients: [{ email: 'r@x.test', fullname: 'R', action: 'sign', position: 1, type: 'external', id: 0 }],
        returnValue: true,
      },
    );
    expect(res.status).toBe(201);
    expect(res.body.contract.contractValue).toContain('Mutual non-disclosure');
    const read = await t.post('/api/contract', { data: { action: 'read', contract: { contractKey: key } } }, auth);
    expect(read.body.contract).toMatchObject({
      status: 'Created',
      contractType: 6,
      templateKey: DEMO.templateKey,
    });
    const recipients = await t.post('/api/recipient', { data: { action: 'list', contractKey: key } }, auth);
    expect(recipients.body.recipients).toHaveLength(1);
  });

  it('takes a content change once sent, refuses it once signed (409), and still renames', async () => {
    const key = (await create({ name: 'S', value: 'x' }, { recipients: [{ email: 'a@b.test', action: 'sign' }] })).body
      .contract.contractKey;
    expect((await update({ contractKey: key, value: 'y' })).status).toBe(201);
    const [signer] = t.sandbox.services.store.recipients.where('contract', key);
    expect((await t.control(`/recipients/${signer!.recipientKey}/sign`, {})).status).toBe(200);
    expect((await update({ contractKey: key, value: 'z' })).status).toBe(409);
    expect((await update({ contractKey: key, name: 'Renamed' })).status).toBe(201);
  });

  it('refuses an archived contract (409)', async () => {
    const key = (await create({ name: 'A', value: 'x' })).body.contract.contractKey;
    await t.post('/api/contract', { data: { action: 'archive', contract: { contractKey: key } } }, auth);
    expect((await update({ contractKey: key, name: 'B' })).status).toBe(409);
  });

  it.each([
    ['an empty name', { name: '' }, 'data.contract.name'],
    ['an unknown contractType', { contractType: 'rtf' }, 'data.contract.contractType'],
  ])('refuses %s', async (_n, fields, path) => {
    const key = (await create({ name: 'A', value: 'x' })).body.contract.contractKey;
    const res = await update({ contractKey: key, ...fields });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });
});

describe('contract duplicate', () => {
  it('makes a new Created contract with the content and placeholder values, answering code 201 as a number', async () => {
    const key = (
      await create(
        { name: 'Orig', value: '<placeholder1></placeholder1>' },
        { placeholders: [{ name: 'p', value: 'v' }], recipients: [{ email: 'a@b.test' }] },
      )
    ).body.contract.contractKey;
    const res = await t.post(
      '/api/contract',
      { data: { action: 'duplicate', userKey: DEMO.userKey, contract: { contractKey: key } } },
      auth,
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      contract: { createTime: '2026-03-01 09:00:00', contractKey: expect.any(String) },
      code: 201,
      message: 'Contract duplicated',
    });
    const copy = res.body.contract.contractKey;
    expect(copy).not.toBe(key);
    const read = await t.post('/api/contract', { data: { action: 'read', contract: { contractKey: copy } } }, auth);
    expect(read.body.contract).toMatchObject({
      name: 'Orig',
      status: 'Created',
      value: '<placeholder1></placeholder1>',
    });
    const recipients = await t.post('/api/recipient', { data: { action: 'list', contractKey: copy } }, auth);
    expect(recipients.body.recipients).toEqual([]);
    const list = await t.post('/api/placeholder', { data: { action: 'list', contractKey: copy } }, auth);
    expect(list.body.placeholders.map((p: { value: string }) => p.value)).toEqual(['v']);
  });
});

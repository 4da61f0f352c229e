import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Auth, DEMO, FROZEN, type TestSandbox, testSandbox } from './helpers.js';

let t: TestSandbox;
let auth: Auth;
beforeEach(async () => {
  t = await testSandbox(FROZEN);
  auth = await t.demoAuth();
});
afterEach(() => t.close());

const template = (fields: object) => t.post('/api/template', { data: fields }, auth);
const placeholders = (owner: 'contract' | 'template', key: string) =>
  t.sandbox.services.store.placeholders.where(owner, key).map((p) => ({ name: p.name, value: p.value, isSpecial: p.isSpecial }));

describe('template create and read', () => {
  it('creates with SQL-format time and reads back every field', async () => {
    const created = await template({ action: 'create', template: { name: 'Lease', value: '<p>Lease</p>' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      template: { createTime: '2026-03-01 09:00:00', templateKey: expect.stringMatching(/^[A-Za-z0-9]+$/) },
      code: '201',
      message: 'Template created',
    });
    const read = await template({ action: 'read', template: { templateKey: created.body.template.templateKey, name: 'Lease' } });
    expect(read.body).toEqual({
      template: {
        createTime: '2026-03-01 09:00:00',
        changeTime: '2026-03-01 09:00:00',
        templateKey: created.body.template.templateKey,
        name: 'Lease',
        value: '<p>Lease</p>',
      },
      code: '200',
      message: 'Template found',
    });
  });

  it.each([
    ['create without a value', { action: 'create', template: { name: 'x' } }, 'data.template.value'],
    ['create without a name', { action: 'create', template: { value: 'x' } }, 'data.template.name'],
    ['read without a key', { action: 'read', template: {} }, 'data.template.templateKey'],
    ['convert without a contract', { action: 'convert', template: { name: 'x' } }, 'data.template.contractKey'],
  ])('refuses %s', async (_name, body, path) => {
    const res = await template(body);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it('answers 404 for an unknown template', async () => {
    expect((await template({ action: 'read', template: { templateKey: 'nope' } })).body).toEqual({ code: 404, message: 'Template not found' });
  });
});

describe('template convert', () => {
  it('copies the contract content and keeps its placeholders with values cleared, leaving the contract unchanged', async () => {
    const contractKey = (await t.post('/api/contract', { data: { action: 'create', contract: { name: 'C', value: '<p>Body</p>' } } }, auth)).body
      .contract.contractKey;
    await t.post('/api/placeholder', { data: { action: 'create', contractKey, placeholder: { name: 'price', value: '100' } } }, auth);
    await t.post('/api/recipient', { data: { action: 'send', contractKey, recipients: [{ email: 'a@b.test' }] } }, auth);
    const res = await template({ action: 'convert', template: { name: 'From C', contractKey } });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Template created');
    const key = res.body.template.templateKey;
    expect((await template({ action: 'read', template: { templateKey: key } })).body.template.value).toBe('<p>Body</p>');
    expect(placeholders('template', key)).toEqual([{ name: 'price', value: '', isSpecial: false }]);
    expect(placeholders('contract', contractKey).find((p) => p.name === 'price')!.value).toBe('100');
  });
});

describe('template duplicate', () => {
  it('makes a new template with the same content and cleared placeholders', async () => {
    const res = await template({ action: 'duplicate', template: { templateKey: DEMO.templateKey } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ code: '201', message: 'Template duplicated' });
    expect(res.body.template.templateKey).not.toBe(DEMO.templateKey);
    expect(res.body.template.createTime).toBe('2026-03-01 09:00:00');
  });
});

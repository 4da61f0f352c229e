import { beforeEach, describe, expect, it } from 'vitest';
import { type Auth, DEMO, sandboxEachTest } from '../support/helpers.js';
import { asOutsider, OUTSIDERS, outsiders } from '../support/outsiders.js';

const t = sandboxEachTest();
let auth: Auth;
beforeEach(async () => {
  auth = await t.demoAuth();
});

const template = (fields: object) => t.post('/api/template', { data: fields }, auth);
const placeholders = (owner: 'contract' | 'template', key: string) =>
  t.sandbox.services.store.placeholders
    .where(owner, key)
    .map((p) => ({ name: p.name, value: p.value, isSpecial: p.isSpecial }));

describe('template create and read', () => {
  it('creates with SQL-format time and reads back every field', async () => {
    const created = await template({ action: 'create', template: { name: 'Lease', value: '<p>Lease</p>' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      template: { createTime: '2026-03-01 09:00:00', templateKey: expect.stringMatching(/^[A-Za-z0-9]+$/) },
      code: '201',
      message: 'Template created',
    });
    const read = await template({
      action: 'read',
      template: { templateKey: created.body.template.templateKey, name: 'Lease' },
    });
    expect(read.body).toEqual({
      template: {
        createTime: '2026-03-01 09:00:00',
        changeTime: '2026-03-01 09:00:00',
        templateKey: created.body.template.templateKey,
        name: 'Lease',
        value: '<p>Lease</p>',
        isPdf: false,
      },
      code: '200',
      message: 'Template found',
    });
  });

  it("creates a PDF template from isPdf: true with no value (or the editor's empty one), its file to follow", async () => {
    for (const fields of [{}, { value: '<div></div>' }]) {
      const created = await template({ action: 'create', template: { name: 'Scan', isPdf: true, ...fields } });
      expect(created.status).toBe(201);
      const read = await template({ action: 'read', template: { templateKey: created.body.template.templateKey } });
      expect(read.body.template).toMatchObject({ value: '', isPdf: true });
    }
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
    expect((await template({ action: 'read', template: { templateKey: 'nope' } })).body).toEqual({
      code: 404,
      message: 'Template not found',
    });
  });
});

describe('template convert', () => {
  it('copies the contract content and keeps its placeholders with values cleared, leaving the contract unchanged', async () => {
    const contractKey = (
      await t.post('/api/contract', { data: { action: 'create', contract: { name: 'C', value: '<p>Body</p>' } } }, auth)
    ).body.contract.contractKey;
    await t.post(
      '/api/placeholder',
      { data: { action: 'create', contractKey, placeholder: { name: 'price', value: '100' } } },
      auth,
    );
    await t.post(
      '/api/recipient',
      { data: { action: 'send', contractKey, recipients: [{ email: 'a@b.test' }] } },
      auth,
    );
    const res = await template({ action: 'convert', template: { name: 'From C', contractKey } });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Template created');
    expect(res.body.code).toBe(201);
    const key = res.body.template.templateKey;
    expect((await template({ action: 'read', template: { templateKey: key } })).body.template.value).toBe(
      '<p>Body</p>',
    );
    expect(placeholders('template', key)).toEqual([{ name: 'price', value: '', isSpecial: false }]);
    expect(placeholders('contract', contractKey).find((p) => p.name === 'price')!.value).toBe('100');
  });
});

describe('template duplicate', () => {
  it('makes a new template with the same content and cleared placeholders', async () => {
    const res = await template({ action: 'duplicate', template: { templateKey: DEMO.templateKey } });
    expect(res.status).toBe(201);
    // The components compare the code with the number 201 (docs/compatibility.md, "Codes").
    expect(res.body).toMatchObject({ code: 201, message: 'Template duplicated' });
    expect(res.body.template.templateKey).not.toBe(DEMO.templateKey);
    expect(res.body.template.createTime).toBe('2026-03-01 09:00:00');
  });
});

describe('template create and fill', () => {
  it("creates the template's placeholders from placeholders[]", async () => {
    const res = await template({
      action: 'create',
      template: { name: 'T', value: '<placeholder1></placeholder1>' },
      placeholders: [
        { name: 'party', value: 'ACME' },
        { name: 'qty', value: 3 },
      ],
    });
    expect(res.status).toBe(201);
    expect(placeholders('template', res.body.template.templateKey)).toEqual([
      { name: 'party', value: 'ACME', isSpecial: false },
      { name: 'qty', value: '3', isSpecial: false },
    ]);
  });
});

describe('template list', () => {
  it('lists the client\'s templates with key, name and ISO times, "200" "Templates found"', async () => {
    await template({ action: 'create', template: { name: 'Second', value: 'x' } });
    const res = await template({ action: 'list', userKey: '' });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe('200');
    expect(res.body.message).toBe('Templates found');
    expect(res.body.templates.map((x: { name: string }) => x.name)).toEqual(['Mutual NDA', 'Second']);
    expect(res.body.templates[0]).toEqual({
      templateKey: DEMO.templateKey,
      name: 'Mutual NDA',
      createTime: expect.stringMatching(/Z$/),
      changeTime: expect.stringMatching(/Z$/),
    });
  });
});

describe('template update', () => {
  it('renames and changes the content, answering code 201 as a number with SQL-format times', async () => {
    await t.control('/clock/advance', { by: '10m' });
    const res = await template({
      action: 'update',
      template: { templateKey: DEMO.templateKey, name: 'NDA v2', value: '<p>v2</p>' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      template: {
        createTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        changeTime: '2026-03-01 09:10:00',
        templateKey: DEMO.templateKey,
      },
      code: 201,
      message: 'Template updated',
    });
    const read = await template({ action: 'read', template: { templateKey: DEMO.templateKey } });
    expect(read.body.template).toMatchObject({ name: 'NDA v2', value: '<p>v2</p>' });
  });

  it('refuses an empty name', async () => {
    const res = await template({ action: 'update', template: { templateKey: DEMO.templateKey, name: '' } });
    expect(res.status).toBe(400);
  });
});

describe('template delete', () => {
  it('deletes the template and its placeholders; contracts made from it keep their content', async () => {
    const made = await t.post(
      '/api/contract',
      { data: { action: 'create', contract: { name: 'C', templateKey: DEMO.templateKey } } },
      auth,
    );
    const res = await template({ action: 'delete', template: { templateKey: DEMO.templateKey } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ template: { templateKey: DEMO.templateKey }, code: 201, message: 'Template deleted' });
    expect((await template({ action: 'read', template: { templateKey: DEMO.templateKey } })).status).toBe(404);
    expect(placeholders('template', DEMO.templateKey)).toEqual([]);
    const read = await t.post(
      '/api/contract',
      { data: { action: 'read', contract: { contractKey: made.body.contract.contractKey } } },
      auth,
    );
    expect(read.body.contract.value).toContain('Mutual non-disclosure');
  });
});

describe('template operations across tenants', () => {
  it.each(['update', 'delete', 'read'])(
    "%s answers 404 for another client's or platform's template",
    async (action) => {
      const others = await outsiders(t);
      expect(others.map((o) => o.name)).toEqual(OUTSIDERS);
      for (const o of others) {
        const res = await t.post(
          '/api/template',
          asOutsider(o, { data: { action, template: { templateKey: DEMO.templateKey, name: 'x' } } }),
          o.auth,
        );
        expect(res.status, o.name).toBe(404);
      }
      expect((await template({ action: 'read', template: { templateKey: DEMO.templateKey } })).body.template.name).toBe(
        'Mutual NDA',
      );
    },
  );

  it("list shows only the caller's templates", async () => {
    const others = await outsiders(t);
    expect(others.map((o) => o.name)).toEqual(OUTSIDERS);
    for (const o of others) {
      const res = await t.post('/api/template', asOutsider(o, { data: { action: 'list' } }), o.auth);
      expect(res.body.templates, o.name).toEqual([]);
    }
  });
});

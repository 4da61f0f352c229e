import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Auth, DEMO, FROZEN, type TestSandbox, testSandbox } from '../support/helpers.js';
import { asOutsider, outsiders } from '../support/outsiders.js';

let t: TestSandbox;
let auth: Auth;
let contractKey: string;
let recipientKey: string;
beforeEach(async () => {
  t = await testSandbox(FROZEN);
  auth = await t.demoAuth();
  contractKey = (
    await t.post('/api/contract', { data: { action: 'create', contract: { name: 'P', value: 'x' } } }, auth)
  ).body.contract.contractKey;
  await t.post(
    '/api/recipient',
    { data: { action: 'send', contractKey, recipients: [{ email: 'a@b.test', fullname: 'A B' }] } },
    auth,
  );
  recipientKey = (await t.post('/api/recipient', { data: { action: 'list', contractKey } }, auth)).body.recipients[0]
    .recipientKey;
});
afterEach(() => t.close());

const update = (placeholders: unknown) =>
  t.post('/api/placeholder', { data: { action: 'update', contractKey, placeholders } }, auth);

describe('placeholder create', () => {
  it('answers numeric code 201 with id, times, name, value, type, key and position as a string', async () => {
    const res = await t.post(
      '/api/placeholder',
      { data: { action: 'create', contractKey, placeholder: { name: 'price', value: '100 EUR' } } },
      auth,
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      placeholder: {
        id: expect.any(String),
        createTime: '2026-03-01T09:00:00.000Z',
        changeTime: '2026-03-01T09:00:00.000Z',
        name: 'price',
        value: '100 EUR',
        type: '1',
        placeholderKey: expect.stringMatching(/^[A-Za-z0-9]+$/),
        position: expect.stringMatching(/^\d+$/),
      },
      code: 201,
      message: 'Placeholder created',
    });
  });

  it('needs a name', async () => {
    const res = await t.post(
      '/api/placeholder',
      { data: { action: 'create', contractKey, placeholder: { value: 'x' } } },
      auth,
    );
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: 'data.placeholder.name', message: 'Required' }]);
  });
});

describe('special placeholder update', () => {
  it('places insertions and answers numeric code 201 "Placeholder updated"', async () => {
    const res = await update([
      {
        placeholderKey: `${recipientKey}_4`,
        isSpecial: true,
        specialType: 4,
        insertion: [{ pageId: '0', width: '120', height: '40', positionX: '10', positionY: '20' }],
      },
    ]);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      placeholder: { createTime: '2026-03-01T09:00:00.000Z', changeTime: '2026-03-01T09:00:00.000Z' },
      code: 201,
      message: 'Placeholder updated',
    });
    expect(t.sandbox.services.store.placeholders.get(`${recipientKey}_4`)!.insertion).toEqual([
      { id: '1', pageId: '0', width: '120', height: '40', positionX: '10', positionY: '20' },
    ]);
  });

  it('updates an insertion named by an existing id and adds one with a new id', async () => {
    await update([
      { placeholderKey: `${recipientKey}_1`, isSpecial: true, specialType: 1, insertion: [{ id: 'a', pageId: '0' }] },
    ]);
    await update([
      {
        placeholderKey: `${recipientKey}_1`,
        isSpecial: true,
        specialType: '1',
        insertion: [
          { id: 'a', pageId: '2' },
          { id: 'b', pageId: '3' },
        ],
      },
    ]);
    expect(t.sandbox.services.store.placeholders.get(`${recipientKey}_1`)!.insertion).toEqual([
      { id: 'a', pageId: '2' },
      { id: 'b', pageId: '3' },
    ]);
  });

  it.each([
    ['isSpecial false', [{ placeholderKey: 'k_1', isSpecial: false, specialType: 1 }], 400],
    ['specialType 5', [{ placeholderKey: 'k_1', isSpecial: true, specialType: 5 }], 400],
    ['an empty list', [], 400],
    ['a placeholder of no recipient', [{ placeholderKey: 'nobody_1', isSpecial: true, specialType: 1 }], 404],
  ])('refuses %s', async (_name, placeholders, status) => {
    expect((await update(placeholders)).status).toBe(status);
  });

  it('refuses a specialType that does not match the key', async () => {
    const res = await update([{ placeholderKey: `${recipientKey}_2`, isSpecial: true, specialType: 3 }]);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe('data.placeholders.0.specialType');
  });
});

const call = (data: object, as: Auth = auth, headers: Record<string, string> = {}) =>
  t.request('/api/placeholder', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${(as as { bearer: string }).bearer}`,
      ...headers,
    },
    body: JSON.stringify({ data }),
  });
const createPlaceholder = async (
  placeholder: object = { name: 'price', value: '100' },
  owner: object = { contractKey },
) => (await t.post('/api/placeholder', { data: { action: 'create', ...owner, placeholder } }, auth)).body.placeholder;

describe('placeholder list', () => {
  it('lists the ordinary placeholders of a contract, in position order, with a numeric id, view and color', async () => {
    const p = await createPlaceholder();
    const res = await t.post('/api/placeholder', { data: { action: 'list', contractKey } }, auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      placeholders: [
        {
          id: Number(p.id),
          createTime: '2026-03-01T09:00:00.000Z',
          changeTime: '2026-03-01T09:00:00.000Z',
          name: 'price',
          value: '100',
          placeholderKey: p.placeholderKey,
          position: Number(p.position),
          type: '1',
          fillingType: '1',
          isTable: false,
          insertion: [],
          view: 1,
          color: '#fafafa',
        },
      ],
      code: '200',
      message: 'Placeholders found',
    });
  });

  it("gives the components' view (2 for a signature) and the colour of the recipient who fills it", async () => {
    const res = await call({ action: 'list', contractKey }, auth, { 'x-sendforsign-component': 'true' });
    const specials = res.body.placeholders.filter((p: { isSpecial: boolean }) => p.isSpecial);
    expect(specials.map((p: Record<string, unknown>) => [p.specialType, p.view, p.color])).toEqual([
      [1, 1, '#8ae2f4'],
      [2, 1, '#8ae2f4'],
      [3, 1, '#8ae2f4'],
      [4, 2, '#8ae2f4'],
    ]);
  });

  it("lists the contract's placeholders when both keys are named, as the docs' own example does", async () => {
    await createPlaceholder({ name: 'contract-only' });
    const res = await t.post(
      '/api/placeholder',
      { data: { action: 'list', contractKey, templateKey: DEMO.templateKey } },
      auth,
    );
    expect(res.status).toBe(200);
    expect(res.body.placeholders.map((p: { name: string }) => p.name)).toEqual(['contract-only']);
  });

  it.each([
    ['true', 5],
    ['false', 1],
  ])(
    'with X-Sendforsign-Component: %s lists %i placeholders (the special ones only with true)',
    async (header, count) => {
      await createPlaceholder();
      const res = await call({ action: 'list', contractKey }, auth, { 'x-sendforsign-component': header });
      expect(res.body.placeholders).toHaveLength(count);
      if (header === 'true') {
        expect(
          res.body.placeholders
            .filter((p: { isSpecial: boolean }) => p.isSpecial)
            .map((p: Record<string, unknown>) => [p.specialType, p.externalRecipientKey]),
        ).toEqual([
          [1, recipientKey],
          [2, recipientKey],
          [3, recipientKey],
          [4, recipientKey],
        ]);
      }
    },
  );

  it('lists the placeholders of a template', async () => {
    await createPlaceholder({ name: 'party' }, { templateKey: DEMO.templateKey });
    const res = await t.post('/api/placeholder', { data: { action: 'list', templateKey: DEMO.templateKey } }, auth);
    expect(res.body.placeholders.map((p: { name: string }) => p.name)).toContain('party');
  });

  it('refuses a list naming neither key', async () => {
    const res = await t.post('/api/placeholder', { data: { action: 'list' } }, auth);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe('data.contractKey');
  });
});

describe('ordinary placeholder update', () => {
  it.each([
    ['a string', 'EUR 5', 'EUR 5'],
    ['a number', 5, '5'],
  ])('changes name and value (%s), answering "201" as a string with position null', async (_n, value, stored) => {
    const p = await createPlaceholder();
    const res = await t.post(
      '/api/placeholder',
      {
        data: { action: 'update', contractKey, placeholder: { placeholderKey: p.placeholderKey, name: 'cost', value } },
      },
      auth,
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      placeholder: {
        id: p.id,
        createTime: '2026-03-01T09:00:00.000Z',
        changeTime: '2026-03-01T09:00:00.000Z',
        name: 'cost',
        value: stored,
        type: '1',
        placeholderKey: p.placeholderKey,
        position: null,
      },
      code: '201',
      message: 'Placeholder updated',
    });
  });

  it('reassigns the filler (fillingType 4 and externalRecipientKey), which list shows', async () => {
    const p = await createPlaceholder();
    const res = await t.post(
      '/api/placeholder',
      {
        data: {
          action: 'update',
          contractKey,
          placeholder: { placeholderKey: p.placeholderKey, fillingType: 4, externalRecipientKey: recipientKey },
        },
      },
      auth,
    );
    expect(res.status).toBe(201);
    const list = await call({ action: 'list', contractKey }, auth, { 'x-sendforsign-component': 'true' });
    expect(
      list.body.placeholders.find((x: { placeholderKey: string }) => x.placeholderKey === p.placeholderKey),
    ).toMatchObject({ fillingType: '4', externalRecipientKey: recipientKey });
  });

  it('refuses a filler who is not a recipient of the contract (404)', async () => {
    const p = await createPlaceholder();
    const res = await t.post(
      '/api/placeholder',
      {
        data: {
          action: 'update',
          contractKey,
          placeholder: { placeholderKey: p.placeholderKey, externalRecipientKey: 'nobody' },
        },
      },
      auth,
    );
    expect(res.status).toBe(404);
  });

  it("refuses to change a special placeholder's value (409)", async () => {
    const res = await t.post(
      '/api/placeholder',
      { data: { action: 'update', contractKey, placeholder: { placeholderKey: `${recipientKey}_2`, value: 'x' } } },
      auth,
    );
    expect(res.status).toBe(409);
  });

  it('sets a table value, answering numeric 201 with isTable and the table as JSON', async () => {
    const p = await createPlaceholder();
    const table = {
      columns: ['item', 'qty'],
      rows: [
        ['apple', 3],
        ['pear', '4'],
      ],
    };
    const res = await t.post(
      '/api/placeholder',
      { data: { action: 'update', contractKey, placeholder: { placeholderKey: p.placeholderKey, table } } },
      auth,
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      placeholder: {
        value: JSON.stringify(table),
        isTable: true,
        type: '1',
        position: p.position,
        fillingType: '1',
        externalRecipientKey: null,
      },
      code: 201,
      message: 'Placeholder updated',
    });
  });

  it('updates a template placeholder', async () => {
    const p = await createPlaceholder({ name: 'party' }, { templateKey: DEMO.templateKey });
    const res = await t.post(
      '/api/placeholder',
      {
        data: {
          action: 'update',
          templateKey: DEMO.templateKey,
          placeholder: { placeholderKey: p.placeholderKey, value: 'ACME' },
        },
      },
      auth,
    );
    expect(res.status).toBe(201);
  });

  it('refuses a body with both placeholder and placeholders', async () => {
    const res = await t.post(
      '/api/placeholder',
      { data: { action: 'update', contractKey, placeholder: { placeholderKey: 'x' }, placeholders: [] } },
      auth,
    );
    expect(res.status).toBe(400);
  });
});

describe('insertions as real clients send them', () => {
  const place = (insertion: object[]) =>
    update([{ placeholderKey: `${recipientKey}_4`, isSpecial: true, specialType: 4, insertion }]);

  it.each([
    [
      'strings from id "1" with action and clientKey',
      {
        id: '1',
        pageId: '0',
        width: '100',
        height: '50',
        positionX: '10',
        positionY: '20',
        action: 'update',
        clientKey: DEMO.clientKey,
      },
      [],
    ],
    [
      "numbers from id 0 (the docs' shape)",
      { id: 0, pageId: 0, width: 100, height: 50, positionX: 10, positionY: 20 },
      ['numbers', 'id 0', 'without action or clientKey'],
    ],
  ])('takes %s, storing strings, with the matching warnings', async (_n, item, warnings) => {
    const res = await place([item]);
    expect(res.status).toBe(201);
    const stored = t.sandbox.services.store.placeholders.get(`${recipientKey}_4`)!.insertion[0]!;
    expect(Object.values(stored).every((v) => typeof v === 'string')).toBe(true);
    const header = res.headers.get('x-sandbox-warning') ?? '';
    for (const w of warnings) expect(header).toContain(w);
    if (warnings.length === 0) expect(res.headers.get('x-sandbox-warning')).toBeNull();
    const [entry] = (await t.control('/requests?path=/api/placeholder&limit=1')).body.requests;
    expect((entry.warnings ?? []).length).toBe(warnings.length);
  });

  it('removes a placement with action "delete"', async () => {
    await place([
      { id: '1', pageId: '0', action: 'update', clientKey: DEMO.clientKey },
      { id: '2', pageId: '1', action: 'update', clientKey: DEMO.clientKey },
    ]);
    const res = await place([{ id: '1', pageId: '0', action: 'delete', clientKey: DEMO.clientKey }]);
    expect(res.status).toBe(201);
    expect(t.sandbox.services.store.placeholders.get(`${recipientKey}_4`)!.insertion.map((x) => x.id)).toEqual(['2']);
  });
});

describe('placeholder delete', () => {
  it('deletes an ordinary placeholder, answering "201" "Placeholder deleted"', async () => {
    const p = await createPlaceholder();
    const res = await t.post(
      '/api/placeholder',
      { data: { action: 'delete', contractKey, placeholder: { placeholderKey: p.placeholderKey } } },
      auth,
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      placeholder: { placeholderKey: p.placeholderKey },
      code: '201',
      message: 'Placeholder deleted',
    });
    const list = await t.post('/api/placeholder', { data: { action: 'list', contractKey } }, auth);
    expect(list.body.placeholders).toEqual([]);
  });

  it('refuses a special placeholder (409) and an unknown key (404)', async () => {
    expect(
      (
        await t.post(
          '/api/placeholder',
          { data: { action: 'delete', contractKey, placeholder: { placeholderKey: `${recipientKey}_1` } } },
          auth,
        )
      ).status,
    ).toBe(409);
    expect(
      (
        await t.post(
          '/api/placeholder',
          { data: { action: 'delete', contractKey, placeholder: { placeholderKey: 'nope' } } },
          auth,
        )
      ).status,
    ).toBe(404);
  });
});

describe('placeholder operations across tenants', () => {
  it.each([
    ['list', {}],
    ['create', { placeholder: { name: 'x' } }],
    ['update', { placeholder: { placeholderKey: 'PK', value: 'x' } }],
    ['delete', { placeholder: { placeholderKey: 'PK' } }],
  ])("%s answers 404 for another client's or platform's contract and template", async (action, extra) => {
    const p = await createPlaceholder();
    const body = JSON.parse(JSON.stringify(extra).replace('PK', p.placeholderKey));
    for (const o of await outsiders(t)) {
      for (const owner of [{ contractKey }, { templateKey: DEMO.templateKey }]) {
        const res = await t.post('/api/placeholder', asOutsider(o, { data: { action, ...owner, ...body } }), o.auth);
        expect(res.status, `${o.name} ${JSON.stringify(owner)}`).toBe(404);
      }
    }
  });
});

describe('basic placement (pdfbasic): an ordinary placeholder placed with insertion items', () => {
  it.each([
    ['without isSpecial', {}],
    ['with isSpecial: false', { isSpecial: false }],
  ])('places it %s, answers numeric 201, and updates a placement by its id', async (_how, flag) => {
    const p = await createPlaceholder();
    const first = await update([
      {
        placeholderKey: p.placeholderKey,
        ...flag,
        insertion: [
          {
            id: '1',
            pageId: '0',
            width: '200',
            height: '30',
            positionX: '100',
            positionY: '300',
            action: 'update',
            clientKey: 'demoClient',
          },
        ],
      },
    ]);
    expect(first.status).toBe(201);
    expect(first.body.code).toBe(201);
    await update([
      {
        placeholderKey: p.placeholderKey,
        ...flag,
        insertion: [{ id: '1', positionY: '350', action: 'update', clientKey: 'demoClient' }],
      },
    ]);
    const state = await t.control(`/contracts/${contractKey}`);
    const placed = state.body.placeholders.find(
      (x: { placeholderKey: string }) => x.placeholderKey === p.placeholderKey,
    );
    expect(placed.insertion).toEqual([
      {
        id: '1',
        pageId: '0',
        width: '200',
        height: '30',
        positionX: '100',
        positionY: '350',
        action: 'update',
        clientKey: 'demoClient',
      },
    ]);
  });

  it.each([
    [
      'a special placeholder placed as a basic one',
      () => ({ placeholderKey: `${recipientKey}_4` }),
      404,
      /not found among this contract's ordinary placeholders/,
    ],
    [
      'an ordinary placeholder placed as a special one',
      async () => ({ placeholderKey: (await createPlaceholder()).placeholderKey, isSpecial: true, specialType: 4 }),
      404,
      /special placeholders are <recipientKey>_<1..4>/,
    ],
    [
      'a special placement without its specialType',
      () => ({ placeholderKey: `${recipientKey}_4`, isSpecial: true }),
      400,
      /specialType: Required for a special placeholder/,
    ],
    [
      'a specialType on a basic placement',
      async () => ({ placeholderKey: (await createPlaceholder()).placeholderKey, specialType: 2 }),
      400,
      /Only a special placeholder/,
    ],
  ])('refuses %s', async (_what, item, status, message) => {
    const res = await update([
      {
        ...(await item()),
        insertion: [{ id: '1', pageId: '0', width: '10', height: '10', positionX: '1', positionY: '1' }],
      },
    ]);
    expect(res.status).toBe(status);
    expect(res.body.message).toMatch(message);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Auth, DEMO, type TestSandbox } from '../support/helpers.js';
import { asOutsider, OUTSIDERS, outsiders } from '../support/outsiders.js';
import { placeholderCalls, placeholderWorld } from '../support/placeholder-world.js';

let t: TestSandbox;
let auth: Auth;
let contractKey: string;
let recipientKey: string;
beforeEach(async () => {
  ({ t, auth, contractKey, recipientKey } = await placeholderWorld());
});
afterEach(() => t.close());

const { call, createPlaceholder, updateOne } = placeholderCalls(() => ({ t, auth, contractKey, recipientKey }));

describe('placeholder list', () => {
  it('lists the ordinary placeholders of a contract, in position order, with its id as a numeric string (as in the published example), view and color', async () => {
    const p = await createPlaceholder();
    const res = await t.post('/api/placeholder', { data: { action: 'list', contractKey } }, auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      placeholders: [
        {
          id: p.id,
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
    const res = await updateOne({ placeholderKey: p.placeholderKey, name: 'cost', value });
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
    const res = await updateOne({
      placeholderKey: p.placeholderKey,
      fillingType: 4,
      externalRecipientKey: recipientKey,
    });
    expect(res.status).toBe(201);
    const list = await call({ action: 'list', contractKey }, auth, { 'x-sendforsign-component': 'true' });
    expect(
      list.body.placeholders.find((x: { placeholderKey: string }) => x.placeholderKey === p.placeholderKey),
    ).toMatchObject({ fillingType: '4', externalRecipientKey: recipientKey });
  });

  it('refuses a filler who is not a recipient of the contract (404)', async () => {
    const p = await createPlaceholder();
    const res = await updateOne({ placeholderKey: p.placeholderKey, externalRecipientKey: 'nobody' });
    expect(res.status).toBe(404);
  });

  it("refuses to change a special placeholder's value (409)", async () => {
    const res = await updateOne({ placeholderKey: `${recipientKey}_2`, value: 'x' });
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
    const res = await updateOne({ placeholderKey: p.placeholderKey, table });
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

  it('refuses a value and a table at once', async () => {
    const p = await createPlaceholder();
    const res = await updateOne({ placeholderKey: p.placeholderKey, value: 'x', table: { columns: ['a'], rows: [] } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: 'data.placeholder.table', message: 'Give value or table, not both' }]);
  });

  it('updates a template placeholder', async () => {
    const p = await createPlaceholder({ name: 'party' }, { templateKey: DEMO.templateKey });
    const res = await updateOne({ placeholderKey: p.placeholderKey, value: 'ACME' }, { templateKey: DEMO.templateKey });
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
    const others = await outsiders(t);
    expect(others.map((o) => o.name)).toEqual(OUTSIDERS);
    for (const o of others) {
      for (const owner of [{ contractKey }, { templateKey: DEMO.templateKey }]) {
        const res = await t.post('/api/placeholder', asOutsider(o, { data: { action, ...owner, ...body } }), o.auth);
        expect(res.status, `${o.name} ${JSON.stringify(owner)}`).toBe(404);
      }
    }
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Auth, DEMO, type TestSandbox } from '../support/helpers.js';
import { placeholderCalls, placeholderWorld } from '../support/placeholder-world.js';

let t: TestSandbox;
let auth: Auth;
let contractKey: string;
let recipientKey: string;
beforeEach(async () => {
  ({ t, auth, contractKey, recipientKey } = await placeholderWorld());
});
afterEach(() => t.close());

const { update, createPlaceholder } = placeholderCalls(() => ({ t, auth, contractKey, recipientKey }));

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

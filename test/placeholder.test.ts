import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Auth, FROZEN, type TestSandbox, testSandbox } from './helpers.js';

let t: TestSandbox;
let auth: Auth;
let contractKey: string;
let recipientKey: string;
beforeEach(async () => {
  t = await testSandbox(FROZEN);
  auth = await t.demoAuth();
  contractKey = (await t.post('/api/contract', { data: { action: 'create', contract: { name: 'P', value: 'x' } } }, auth)).body.contract.contractKey;
  await t.post('/api/recipient', { data: { action: 'send', contractKey, recipients: [{ email: 'a@b.test', fullname: 'A B' }] } }, auth);
  recipientKey = (await t.post('/api/recipient', { data: { action: 'list', contractKey } }, auth)).body.recipients[0].recipientKey;
});
afterEach(() => t.close());

const update = (placeholders: unknown) => t.post('/api/placeholder', { data: { action: 'update', contractKey, placeholders } }, auth);

describe('placeholder create', () => {
  it('answers numeric code 201 with id, times, name, value, type, key and position as a string', async () => {
    const res = await t.post('/api/placeholder', { data: { action: 'create', contractKey, placeholder: { name: 'price', value: '100 EUR' } } }, auth);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      placeholder: {
        id: expect.any(String),
        createTime: '2026-03-01T09:00:00.000Z',
        changeTime: '2026-03-01T09:00:00.000Z',
        name: 'price',
        value: '100 EUR',
        type: 'text',
        placeholderKey: expect.stringMatching(/^[A-Za-z0-9]+$/),
        position: expect.stringMatching(/^\d+$/),
      },
      code: 201,
      message: 'Placeholder created',
    });
  });

  it('needs a name', async () => {
    const res = await t.post('/api/placeholder', { data: { action: 'create', contractKey, placeholder: { value: 'x' } } }, auth);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: 'data.placeholder.name', message: 'Required' }]);
  });
});

describe('special placeholder update', () => {
  it('places insertions and answers numeric code 201 "Placeholder updated"', async () => {
    const res = await update([
      { placeholderKey: `${recipientKey}_4`, isSpecial: true, specialType: 4, insertion: [{ pageId: '0', width: '120', height: '40', positionX: '10', positionY: '20' }] },
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
    await update([{ placeholderKey: `${recipientKey}_1`, isSpecial: true, specialType: 1, insertion: [{ id: 'a', pageId: '0' }] }]);
    await update([{ placeholderKey: `${recipientKey}_1`, isSpecial: true, specialType: '1', insertion: [{ id: 'a', pageId: '2' }, { id: 'b', pageId: '3' }] }]);
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

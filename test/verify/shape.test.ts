/** The shape rules of verify and of the parity replay (docs/verify.md, "What is compared"), case by case. */
import { describe, expect, it } from 'vitest';
import { compareAnswers, keyShape, stringKind } from '../../src/verify/shape.js';
import { Redactor } from '../../src/verify/redact.js';

describe('string formats', () => {
  it.each([
    ['2026-03-01 09:00:00', 'createTime', 'SQL time'],
    ['2026-03-01T09:00:00.000Z', 'createTime', 'ISO time'],
    ['2026-03-01T09:00:00.123Z', 'createTime', 'ISO time, not .000Z'],
    ['2026-03-01T09:00:00Z', 'createTime', 'ISO time, not .000Z'],
    ['https://example.com/a.pdf', 'value', 'URL'],
    ['ada@example.com', 'email', 'email'],
    ['1', 'id', 'numeric string'],
    ['', 'organization', 'empty string'],
    ['Mutual NDA', 'name', 'string'],
    ['aB3dE5gH7jK9mN1pQ2sT', 'contractKey', 'key of 20 [A-Za-z0-9]'],
    ['whsec_abc+/DEF0123456789abcdefXYZ', 'secret', 'whsec_ + key of 27 [base64]'],
    ['3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e', 'clientKey', 'UUID'],
    ['<contractKey#1>', 'contractKey', 'redacted'],
  ])('%j under %s is %s', (text, field, kind) => expect(stringKind(text, field)).toBe(kind));

  it("names a key's length and alphabet, and hex apart", () => {
    expect(keyShape('0123456789abcdef0123')).toBe('key of 20 [0-9a-f]');
    expect(keyShape('abc_DEF-0123456789xyz')).toBe('key of 21 [base64url]');
  });
});

describe('comparing two answers', () => {
  const a = (status: number, body: unknown) => ({ status, body });
  it('tells "201" from 201, and compares message by its exact text', () => {
    expect(compareAnswers(a(201, { code: 201, message: 'Done' }), a(201, { code: '201', message: 'Done.' }))).toEqual([
      { path: 'code', sandbox: '201', target: '"201"' },
      { path: 'message', sandbox: '"Done"', target: '"Done."' },
    ]);
  });

  it('compares array items by their merged shape, not their number or values', () => {
    const sandbox = { rows: [{ id: '1', at: '2026-01-01 10:00:00' }] };
    const target = {
      rows: [
        { id: '7', at: '2025-05-05 05:05:05' },
        { id: '8', at: '2025-05-05 05:05:06', x: 1 },
      ],
    };
    expect(compareAnswers(a(200, sandbox), a(200, target))).toEqual([
      { path: 'rows[].x', sandbox: 'absent', target: 'absent | number' },
    ]);
    expect(compareAnswers(a(200, { rows: [] }), a(200, { rows: [{ id: 1 }] }))).toEqual([
      { path: 'rows[]', sandbox: 'no items', target: 'items: object' },
    ]);
  });

  it('lets a key of unknown format in a published example match any key, and a random base64 key lack symbols', () => {
    const placeholders = { '<webhookKey#1>': 'key' };
    expect(
      compareAnswers(
        a(201, { webhookKey: 'abcdefghij0123456789' }),
        a(201, { webhookKey: '<webhookKey#1>' }),
        placeholders,
      ),
    ).toEqual([]);
    expect(
      compareAnswers(
        a(201, { secret: 'whsec_AAAAAAAAAAAAAAAAAAAAAAAA' }),
        a(201, { secret: 'whsec_AAAAAAAAAA+/AAAAAAAAAAAA' }),
      ),
    ).toEqual([]);
  });
});

describe('redaction', () => {
  it('gives one value one placeholder, hides it inside other text, and keeps its shape', () => {
    const r = new Redactor();
    r.collect({ contractKey: 'aB3dE5gH7jK9mN1pQ2sT', note: 'mail grace@example.org' });
    expect(r.redact({ path: '/x?contractKey=aB3dE5gH7jK9mN1pQ2sT', key: 'aB3dE5gH7jK9mN1pQ2sT_1' })).toEqual({
      path: '/x?contractKey=<contractKey#1>',
      key: '<contractKey#1>_1',
    });
    expect(r.text('Sent to grace@example.org and bob@example.net')).toBe('Sent to <email#1> and <email#2>');
    expect(r.shapes).toEqual({
      '<contractKey#1>': 'key of 20 [A-Za-z0-9]',
      '<email#1>': 'email',
      '<email#2>': 'email',
    });
  });
});

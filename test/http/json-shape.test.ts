/**
 * The structure limits of JSON bodies (docs/errors.md, "The body limit"; src/http/json-shape.ts): bodies under the
 * byte limit whose shape would keep JSON.parse on the main thread for hundreds of milliseconds are refused first.
 */
import { describe, expect, it } from 'vitest';
import { JSON_SHAPE_LIMITS, checkJsonShape } from '../../src/http/json-shape.js';
import { FROZEN, testSandbox } from '../support/helpers.js';

const keys = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, 1]));

/** Each body is over 256 KiB, so it is scanned; each is one over one limit. */
const OVER: [string, string, string][] = [
  [
    'an object of 30,001 members',
    JSON.stringify({ data: { ...keys(JSON_SHAPE_LIMITS.members), padding: 'x'.repeat(100_000) } }),
    'Request body has too much structure: 30002 object members, the limit is 30000 (docs/errors.md, limits)',
  ],
  [
    '20,001 empty objects',
    JSON.stringify({ data: Array.from({ length: 20_000 }, () => ({})), padding: 'x'.repeat(300_000) }),
    'Request body has too much structure: 20002 objects and arrays, the limit is 20000 (docs/errors.md, limits)',
  ],
  [
    'an array of 300,001 numbers',
    JSON.stringify({ data: { action: 'create', recipients: Array(300_001).fill(1) } }),
    'Request body has too much structure: 300001 values, the limit is 300000 (docs/errors.md, limits)',
  ],
];

describe('JSON bodies with too much structure', () => {
  it.each(OVER)('answers %s with a 400 naming the limit, on /api and /__sandbox', async (_what, body, message) => {
    const t = await testSandbox(FROZEN);
    const headers = { 'content-type': 'application/json' };
    for (const path of ['/api/contract', '/__sandbox/clock/advance']) {
      const res = await t.request(path, { method: 'POST', headers, body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 400, message });
    }
    await t.close();
  });

  it('counts structure only from 256 KiB, as docs/errors.md says: 40,000 members pass below it, not above', () => {
    const members = Array.from({ length: 40_000 }, () => '"a":0').join(',');
    const small = `{${members}}`;
    expect(small.length).toBeLessThan(256 * 1024);
    expect(() => checkJsonShape(small)).not.toThrow();
    const padded = `{${members},"pad":"${'x'.repeat(256 * 1024)}"}`;
    expect(() => checkJsonShape(padded)).toThrow(/40001 object members, the limit is 30000/);
  });

  it('reads structure inside strings as text: quotes, escapes, commas and braces in a value count for nothing', () => {
    const value = '{"a":[1,2],\\"b\\":{}} '.repeat(60_000);
    expect(value.length).toBeGreaterThan(256 * 1024);
    expect(() => checkJsonShape(JSON.stringify({ data: { value } }))).not.toThrow();
  });

  it('takes a real body at its largest: 500 recipients and 1,000 placeholders', () => {
    const body = JSON.stringify({
      data: {
        action: 'update',
        contract: { value: `<p>${'x'.repeat(300_000)}</p>` },
        recipients: Array.from({ length: 500 }, (_, i) => ({
          fullname: `Signer ${i}`,
          email: `s${i}@example.com`,
          action: 'sign',
          position: i + 1,
          customMessage: 'Please sign',
        })),
        placeholders: Array.from({ length: 1000 }, (_, i) => ({
          name: `p${i}`,
          value: `v${i}`,
          isSpecial: false,
          table: { columns: ['a', 'b'], rows: [['1', '2']] },
        })),
      },
    });
    expect(() => checkJsonShape(body)).not.toThrow();
  });
});

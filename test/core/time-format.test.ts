import { describe, expect, it } from 'vitest';
import { isoTime, sqlTime } from '../../src/core/time-format.js';

describe('time formats', () => {
  it("writes the service's SQL-style and ISO times in UTC", () => {
    const ms = Date.parse('2026-03-01T09:05:07.042Z');
    expect(sqlTime(ms)).toBe('2026-03-01 09:05:07');
    expect(isoTime(ms)).toBe('2026-03-01T09:05:07.000Z');
  });

  it.each([
    ['2026-03-01T09:05:07.999Z', '2026-03-01T09:05:07.000Z', '2026-03-01 09:05:07'],
    ['2026-12-31T23:59:59.500Z', '2026-12-31T23:59:59.000Z', '2026-12-31 23:59:59'],
    ['1969-12-31T23:59:59.250Z', '1969-12-31T23:59:59.000Z', '1969-12-31 23:59:59'],
  ])('drops the sub-seconds of %s, so both formats name the same second', (given, iso, sql) => {
    expect(isoTime(Date.parse(given))).toBe(iso);
    expect(sqlTime(Date.parse(given))).toBe(sql);
  });
});

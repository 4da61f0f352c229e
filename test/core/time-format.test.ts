import { describe, expect, it } from 'vitest';
import { isoTime, peopleTime, sqlTime } from '../../src/core/time-format.js';

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

  it.each([
    ['epoch milliseconds', Date.parse('2026-11-25T00:42:24.542Z'), '2026-11-25 00:42:24 UTC'],
    ['an ISO time', '2026-11-25T00:42:24.542Z', '2026-11-25 00:42:24 UTC'],
    ['an SQL-style time (UTC)', '2026-11-25 00:42:24', '2026-11-25 00:42:24 UTC'],
    ['text that is not a time', 'next Tuesday', 'next Tuesday'],
    ['no time', undefined, ''],
  ])('shows people %s one way: %s → %s', (_label, time, shown) => {
    expect(peopleTime(time)).toBe(shown);
  });
});

import { describe, expect, it } from 'vitest';
import { isoTime, sqlTime } from '../../src/core/time-format.js';

describe('time formats', () => {
  it("writes the service's SQL-style and ISO times in UTC", () => {
    const ms = Date.parse('2026-03-01T09:05:07.042Z');
    expect(sqlTime(ms)).toBe('2026-03-01 09:05:07');
    expect(isoTime(ms)).toBe('2026-03-01T09:05:07.042Z');
  });
});

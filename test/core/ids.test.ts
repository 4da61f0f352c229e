import { describe, expect, it } from 'vitest';
import { createIdSource } from '../../src/core/ids.js';

describe('keys', () => {
  it.each([
    ['without a seed', undefined],
    ['with a seed', 42],
  ])('are letters and digits of the asked length, all different, every letter used, %s', (_how, seed) => {
    const ids = createIdSource(seed);
    const keys = Array.from({ length: 5000 }, () => ids.key());
    expect(keys.every((k) => /^[0-9A-Za-z]{20}$/.test(k))).toBe(true);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(keys.join('')).size).toBe(62);
    expect(ids.key(24)).toMatch(/^[0-9A-Za-z]{24}$/);
    expect(ids.key(100)).toMatch(/^[0-9A-Za-z]{100}$/);
  });

  it('draws every letter about equally often without a seed (no modulo bias)', () => {
    const ids = createIdSource();
    const counts = new Map<string, number>();
    for (const c of Array.from({ length: 5000 }, () => ids.key(62)).join('')) counts.set(c, (counts.get(c) ?? 0) + 1);
    // 310,000 letters: 5,000 expected of each; a biased draw (e.g. byte % 62) is off by ~20 % for some letters.
    expect(counts.size, 'all 62 letters drawn').toBe(62);
    for (const n of counts.values()) expect(Math.abs(n - 5000)).toBeLessThan(500);
  });

  it('repeat themselves with the same seed', () => {
    const a = createIdSource(7);
    const b = createIdSource(7);
    expect(Array.from({ length: 10 }, () => a.key())).toEqual(Array.from({ length: 10 }, () => b.key()));
  });
});

/**
 * Globs (docs/scenarios.md, "Globs"): the same answers as the regular expression they replace (`*` → `.*`, `?` → `.`,
 * case-insensitive, dot matching newlines), on 5,000 seeded random pairs; and a glob of many stars against a
 * long value that never matches is answered, where the regular expression backtracked for minutes.
 */
import { describe, expect, it } from 'vitest';
import { globMatches } from '../../src/core/glob.js';

function byRegex(pattern: string, value: string): boolean {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`, 'is').test(value);
}

/** A small seeded generator (mulberry32), so a failure repeats. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('globMatches', () => {
  it.each([
    ['/api/*', '/api/contract', true],
    ['/API/contract', '/api/contract', true],
    ['*@acme.example', 'ann@acme.example', true],
    ['*@acme.example', 'ann@acme.example.org', false],
    ['Lease ?', 'Lease 2', true],
    ['Lease ?', 'Lease 12', false],
    ['*', '', true],
    ['', '', true],
    ['?', '', false],
    ['a*b*c', 'aXXbYYc', true],
    ['a*b*c', 'aXXcYYb', false],
    ['a.b', 'aXb', false],
    ['[x]', '[x]', true],
    ['İstanbul*', 'İSTANBUL 2', true],
  ])('%s against %s: %s', (pattern, value, expected) => {
    expect(globMatches(pattern, value)).toBe(expected);
  });

  it('answers as the regular expression did, on 5,000 random pairs', () => {
    const next = random(37);
    const pick = (chars: string, max: number) =>
      Array.from({ length: Math.floor(next() * max) }, () => chars[Math.floor(next() * chars.length)]).join('');
    const differ: string[] = [];
    for (let i = 0; i < 5_000; i++) {
      const pattern = pick('aAb*?.\n', 8);
      const value = pick('aAbB.\n*?', 10);
      if (globMatches(pattern, value) !== byRegex(pattern, value)) differ.push(JSON.stringify([pattern, value]));
    }
    expect(differ).toEqual([]);
  });

  it('answers a 21-character glob of 11 stars against 100,000 characters that never match', () => {
    expect(globMatches(`${'*a'.repeat(10)}*b`, `/api/${'a'.repeat(100_000)}`)).toBe(false);
    expect(globMatches(`${'*a'.repeat(10)}*b`, `/api/${'a'.repeat(100_000)}b`)).toBe(true);
  });
});

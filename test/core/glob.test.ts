/**
 * Globs (docs/scenarios.md, "Globs"): the same answers as the regular expression they replace (`*` → `.*`, `?` → `.`,
 * case-insensitive, dot matching newlines), on seeded random pairs, short and with runs longer than a word of bits;
 * and the work a match takes, counted in steps rather than time: never more than the value's length times the words
 * of its longest run, however many stars (the regular expression backtracked for minutes) or however long a run (a
 * walk that went back after each star compared 500 characters at every place).
 */
import { describe, expect, it } from 'vitest';
import { globMatches, matchGlob } from '../../src/core/glob.js';
import { MAX_GLOB_LENGTH } from '../../src/core/schemas.js';

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

  it('answers as the regular expression did when runs are longer than 32 characters, on 500 random pairs', () => {
    const next = random(38);
    const pick = (chars: string, length: number) =>
      Array.from({ length }, () => chars[Math.floor(next() * chars.length)]).join('');
    const differ: string[] = [];
    for (let i = 0; i < 500; i++) {
      const runs = Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick('aaaaB??', Math.floor(next() * 70)));
      const pattern = runs.join('*');
      const value = pick('aAb', Math.floor(next() * 160));
      if (globMatches(pattern, value) !== byRegex(pattern, value)) differ.push(JSON.stringify([pattern, value]));
      // A value made to match: the pattern with its wildcards filled in.
      const filled = runs.map((r) => r.replace(/\?/g, 'b')).join(pick('ab', 5));
      if (!globMatches(pattern, filled)) differ.push(JSON.stringify([pattern, filled]));
    }
    expect(differ).toEqual([]);
  });
});

describe('the work of a match', () => {
  /** The most steps a match may take: each character of the value read once per word of bits of the longest run. */
  function bound(pattern: string, value: string): number {
    const longest = Math.max(...pattern.split('*').map((run) => run.length));
    return pattern.length + value.length * Math.max(1, Math.ceil(longest / 32));
  }

  const path = `/api/${'abcdefghijklmnopqrstuvwxy'.repeat(4_000)}`;
  it.each([
    ['*a*b*c*…*z: 26 stars, the last letter never there', `*${[...'abcdefghijklmnopqrstuvwxyz'].join('*')}*`, path],
    ['*a*a*…*a*b: 21 stars against a run of a', `${'*a'.repeat(20)}*b*`, `/api/${'a'.repeat(100_000)}`],
    ['a run of 498 characters between stars, almost there everywhere', `*${'a'.repeat(497)}b*`, 'a'.repeat(100_000)],
    ['a run of ? and a, almost there everywhere', `*${'a?'.repeat(248)}b*`, 'a'.repeat(100_000)],
    ['249 stars and a letter that is never there', `${'*a'.repeat(MAX_GLOB_LENGTH / 2 - 1)}*`, 'b'.repeat(100_000)],
  ])('%s: within the bound, not found', (_, pattern, value) => {
    expect(pattern.length).toBeLessThanOrEqual(MAX_GLOB_LENGTH);
    const { matches, steps } = matchGlob(pattern, value);
    expect(matches).toBe(false);
    expect(steps).toBeLessThanOrEqual(bound(pattern, value));
  });

  it('a single-word run reads each character of the value at most once, whatever the stars', () => {
    const pattern = `*${[...'abcdefghijklmnopqrstuvwxyz'].join('*')}*`;
    expect(matchGlob(pattern, path).steps).toBeLessThanOrEqual(path.length + pattern.length);
    expect(matchGlob(pattern, `${path}z`)).toEqual({ matches: true, steps: expect.any(Number) });
    expect(matchGlob(pattern, `${path}z`).steps).toBeLessThanOrEqual(path.length + 1 + pattern.length);
  });
});

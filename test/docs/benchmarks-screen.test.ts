/**
 * docs/benchmarks.md fits one screen (its opening paragraph): at most 120 lines, none over 160 characters, so the
 * targets and the latest figures are read at a glance; earlier runs stay in its git history.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

describe('docs/benchmarks.md', () => {
  const lines = readFileSync(new URL('../../docs/benchmarks.md', import.meta.url), 'utf8')
    .trimEnd()
    .split('\n');

  it('has at most 120 lines, none over 160 characters', () => {
    expect(lines.length).toBeLessThanOrEqual(120);
    expect(lines.map((line, i) => [i + 1, [...line].length]).filter(([, length]) => length! > 160)).toEqual([]);
  });
});

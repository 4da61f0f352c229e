/**
 * The ratchet on sizes (docs/architecture.md, "Sizes"): a file of src/ over 400 lines or a function over 60 is one a
 * reader cannot take in at once. Today's are frozen here, each at its length; none may grow, no new one may appear,
 * and one that gets within the limit leaves the list. `node scripts/sizes.mjs` prints the list as it is now.
 */
import { describe, expect, it } from 'vitest';
import { type Sizes, measureSizes, sizeProblems } from '../scripts/sizes.mjs';

const FROZEN: Sizes = {
  files: {},
  functions: {},
};

describe('file and function sizes only go down (docs/architecture.md, "Sizes")', () => {
  it('names no file over 400 lines and no function over 60 beyond the frozen list, and none longer than frozen', () => {
    expect(sizeProblems(measureSizes(), FROZEN)).toEqual([]);
  });

  it('would report a new long function, a frozen file that grew, and a frozen entry now short enough', () => {
    const measured: Sizes = { files: { 'a.ts': 420 }, functions: { 'b.ts run': 61 } };
    const frozen: Sizes = { files: { 'a.ts': 410 }, functions: { 'c.ts gone': 70 } };
    expect(sizeProblems(measured, frozen)).toEqual([
      'file grew: a.ts is 420 lines, frozen at 410; split it',
      'new function over 60 lines: b.ts run (61); split it',
      'function within 60 lines now (or renamed): c.ts gone (frozen at 70); take it off the list',
    ]);
  });
});

/**
 * A page's generated block (between its markers, the middle group of `block`) is what its generator gives now;
 * `npm run docs` (`UPDATE_DOCS=1`) writes the block again first. docs/control-api.md and docs/mcp.md use it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { expect } from 'vitest';

export function expectGeneratedBlock(page: URL, block: RegExp, generated: string): void {
  const text = readFileSync(page, 'utf8');
  expect(text).toMatch(block);
  if (process.env.UPDATE_DOCS === '1')
    writeFileSync(
      page,
      text.replace(block, (_m, before: string, _old: string, after: string) => `${before}${generated}${after}`),
    );
  expect(block.exec(readFileSync(page, 'utf8'))![2]).toBe(generated);
}

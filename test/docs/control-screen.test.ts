/**
 * docs/control-api.md lists every control operation on one screen, generated from the control table
 * (control-table/screen.ts): this fails when the table and the page differ. `npm run docs` (`UPDATE_DOCS=1 npx
 * vitest run test/docs/control-screen.test.ts`) writes the page's generated block again.
 */
import { describe, expect, it } from 'vitest';
import { expectGeneratedBlock } from '../support/generated-docs.js';
import { controlRoutes } from '../../src/control-table/index.js';
import { controlScreen } from '../../src/control-table/screen.js';

const PAGE = new URL('../../docs/control-api.md', import.meta.url);
const BLOCK = /(<!-- generated from the control table[^\n]*-->\n```text\n)([\s\S]*?)(\n```)/;

describe('the control API on one screen', () => {
  it('is the control table as it is now', () => {
    expectGeneratedBlock(PAGE, BLOCK, controlScreen());
  });

  it('has one line per route, each fitting a screen', () => {
    const lines = controlScreen().split('\n');
    for (const { method, path } of controlRoutes())
      expect(lines.some((l) => l.startsWith(`${method} /__sandbox${path} `))).toBe(true);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(120);
  });
});

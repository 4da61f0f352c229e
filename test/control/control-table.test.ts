/**
 * The control table and the library's interface, `SandboxControl`, are tied by the compiler (docs/architecture.md,
 * "Rules"): a method without an entry, or an entry of no method, fails the type check. The two `@ts-expect-error`
 * lines below are that check: `npm run typecheck` (and so every landing and CI) fails if either compiles.
 */
import { describe, expect, it } from 'vitest';
import { type ControlTable, type OnlyMethods, controlTable } from '../../src/control-table/index.js';

describe('the control table', () => {
  it('refuses, in the type check, a library method without an entry and an entry of no library method', () => {
    const { 'clock.advance': _, ...withoutAdvance } = controlTable;
    // @ts-expect-error `clock.advance` is a method of SandboxControl: the table must have its entry
    const missing: ControlTable = withoutAdvance;
    const withRewind = { ...controlTable, 'clock.rewind': controlTable['clock.freeze'] };
    // @ts-expect-error `clock.rewind` is no method of SandboxControl: the table refuses its entry
    const extra = withRewind satisfies OnlyMethods<typeof withRewind>;
    expect(Object.keys(missing)).not.toContain('clock.advance');
    expect(Object.keys(extra)).toContain('clock.rewind');
  });
});

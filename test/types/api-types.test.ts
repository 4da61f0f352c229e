/**
 * The package's /api types (docs/library.md, "Types of the API"), as a team's code gets them: test/types/fixture/
 * client.ts imports them from 'esign-sandbox' (the built declarations in dist/, through the package's own name) and
 * is type-checked with `tsc --noEmit`, strict, as a Node ESM project: it compiles, and each line it marks
 * `@ts-expect-error` is refused. That the answers the sandbox sends match these types is checked on every answer a
 * test receives (test/support/openapi-check.ts, the same schemas).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { plainResourceTable, resourceTable } from '../../src/resources/index.js';
import { ROOT, TSC_AS_A_TEAM } from '../support/ci-kit.js';
import { ensureBuilt } from '../support/cli-process.js';

const run = promisify(execFile);

beforeAll(() => ensureBuilt(), 300_000);

const tsc = (file: string) =>
  run(process.execPath, [...TSC_AS_A_TEAM, '--lib', 'es2023,dom', '--types', 'node', file], {
    cwd: ROOT,
    timeout: 120_000,
  }).then(
    () => [],
    (error: { stdout: string }) => error.stdout.trim().split('\n'),
  );

describe('the /api types', () => {
  it('type-check a client of every kind of operation, and refuse what the sandbox refuses', async () => {
    expect(await tsc(join('test', 'types', 'fixture', 'client.ts'))).toEqual([]);
  }, 120_000);

  it('name each resource and endpoint by its path under /api/', () => {
    for (const [name, resource] of Object.entries({ ...resourceTable, ...plainResourceTable }))
      expect(resource.path).toBe(`/api/${name}`);
  });
});

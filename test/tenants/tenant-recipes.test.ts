/**
 * The tenant recipes of docs/library.md ("Parallel tests"), run as a reader runs them: the pytest fixture and tests
 * (urllib only, Debian's python3 and python3-pytest, which .ci/run installs) against the built CLI at
 * ESIGN_SANDBOX_URL. The curl recipe runs with every other shell block (test/docs/examples.test.ts), the vitest one
 * is type-checked there. Without python3 and pytest this skips saying why; in CI it never skips.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startCli } from '../support/cli-process.js';
import { docBlocks } from '../support/doc-blocks.js';
import { PYTHON, pythonUnavailable } from '../support/python.js';

const run = promisify(execFile);
const why = pythonUnavailable();
if (why && process.env.CI === 'true') throw new Error(`the pytest tenant recipe must run in CI: ${why}`);
if (why) console.log(`test/tenants/tenant-recipes skipped: ${why}`);

const work = mkdtempSync(join(tmpdir(), 'esign-tenant-pytest-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The python blocks of docs/library.md, each written to the file its first line names (`# conftest.py`). */
function writeRecipe(): string[] {
  const names: string[] = [];
  for (const block of docBlocks('docs/library.md').filter((b) => b.lang === 'python')) {
    const name = /^# (\w+\.py)\n/.exec(block.text)?.[1];
    if (!name) continue;
    writeFileSync(join(work, name), block.text);
    names.push(name);
  }
  return names;
}

describe('the pytest tenant recipe of docs/library.md', () => {
  it('is there: a conftest.py with the fixture and a test file', () => {
    expect(writeRecipe()).toEqual(['conftest.py', 'test_tokens.py']);
  });

  it.skipIf(why !== undefined)(
    'passes against one running sandbox, each test with its own tenant and clock',
    async () => {
      writeRecipe();
      const cli = await startCli(['--quiet']);
      try {
        const result = await run(PYTHON, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'], {
          cwd: work,
          env: { ...process.env, ESIGN_SANDBOX_URL: cli.url },
          timeout: 120_000,
        }).catch((error: { stdout: string; stderr: string }) => {
          throw new Error(`pytest failed:\n${error.stdout}\n${error.stderr}`);
        });
        expect(result.stdout).toMatch(/\b2 passed\b/);
      } finally {
        cli.child.kill('SIGTERM');
        await cli.exited;
      }
    },
    150_000,
  );
});

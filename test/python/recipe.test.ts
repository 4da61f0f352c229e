/**
 * The Python recipe (docs/python.md) as a Python team runs it: examples/python's pytest suite with Debian's python3
 * and python3-pytest (.ci/run installs them), against the built CLI, both ways its fixture finds a sandbox: started
 * by the fixture itself (ESIGN_SANDBOX_COMMAND) and reached at ESIGN_SANDBOX_URL. The container run is in
 * test/container/testcontainers.test.ts. Without python3 and pytest it skips saying why; in CI it never skips.
 */
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CLI, startCli } from '../support/cli-process.js';
import { ROOT, docBlocks } from '../support/doc-blocks.js';
import { PYTHON, pythonUnavailable } from '../support/python.js';

const run = promisify(execFile);
const EXAMPLES = join(ROOT, 'examples', 'python');

const why = pythonUnavailable();
if (why && process.env.CI === 'true') throw new Error(`the Python recipe must run in CI: ${why}`);
if (why) console.log(`test/python skipped: ${why}`);

/** Runs the example suite; resolves with pytest's output, or fails the test with it. */
async function pytest(env: Record<string, string>): Promise<string> {
  const result = await run(PYTHON, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'], {
    cwd: EXAMPLES,
    env: { ...process.env, ...env },
    timeout: 120_000,
  }).catch((error: { stdout: string; stderr: string }) => {
    throw new Error(`pytest failed:\n${error.stdout}\n${error.stderr}`);
  });
  return result.stdout;
}

describe('the Python recipe', () => {
  it('shows in docs/python.md only code that is in the example files', () => {
    const files = readdirSync(EXAMPLES)
      .filter((f) => f.endsWith('.py'))
      .map((f) => readFileSync(join(EXAMPLES, f), 'utf8'))
      .join('\n');
    const blocks = docBlocks('docs/python.md').filter((b) => b.lang === 'python');
    expect(blocks.length).toBeGreaterThan(0);
    for (const b of blocks) expect(files, `docs/python.md:${b.line}`).toContain(b.text);
  });

  it.skipIf(why !== undefined)(
    'passes with a sandbox the fixture starts and stops itself',
    async () => {
      const out = await pytest({ ESIGN_SANDBOX_COMMAND: `"${process.execPath}" "${CLI}"` });
      expect(out).toMatch(/\b8 passed\b/);
    },
    150_000,
  );

  it.skipIf(why !== undefined)(
    'passes against a sandbox already running at ESIGN_SANDBOX_URL',
    async () => {
      const cli = await startCli(['--quiet']);
      try {
        const out = await pytest({ ESIGN_SANDBOX_URL: cli.url });
        expect(out).toMatch(/\b8 passed\b/);
        // Each test's tenant was reset after it: only the fixtures' demo platform keeps contracts.
        const health = (await (await fetch(`${cli.url}/__sandbox/health`)).json()) as {
          counts: Record<string, number>;
        };
        expect(health.counts.contracts ?? 0).toBe(0);
      } finally {
        cli.child.kill('SIGTERM');
        await cli.exited;
      }
    },
    150_000,
  );
});

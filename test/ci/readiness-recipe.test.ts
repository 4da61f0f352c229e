/**
 * The readiness step of docs/ci.md, both ways, copied out of the page and run as a CI job runs it: the npm block with
 * bash in a project that has esign-sandbox installed, the Python block with python3 beside the Python recipe's files.
 * The sandbox saw a token sent again after its 401, so each exits 1 and writes JUnit XML and Markdown that say so.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/index.js';
import { ROOT, recipe } from '../support/ci-kit.js';
import { PYTHON, pythonUnavailable } from '../support/python.js';
import { scratchDir } from '../support/scratch.js';
import { platformTokenOverHttp } from '../support/tenant-kit.js';

const run = promisify(execFile);
const CLI = join(ROOT, 'dist', 'cli.js');
let sandbox: RunningSandbox;

/** Runs a script; resolves with its exit status and output (a non-zero status is an answer, not an error). */
async function status(file: string, args: string[], cwd: string) {
  try {
    const { stdout } = await run(file, args, {
      cwd,
      timeout: 60_000,
      env: { ...process.env, GITHUB_STEP_SUMMARY: '' },
    });
    return { code: 0, stdout };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: `${e.stdout}${e.stderr}` };
  }
}

beforeAll(async () => {
  sandbox = await startSandbox();
  const token = await platformTokenOverHttp(sandbox.url, sandbox);
  await sandbox.expireTokens();
  for (let i = 0; i < 2; i++)
    await fetch(`${sandbox.url}/api/client`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ data: { action: 'list' } }),
    });
});
afterAll(() => sandbox?.close());

function expectReports(dir: string) {
  const junit = readFileSync(join(dir, 'reports', 'readiness.xml'), 'utf8');
  expect(junit).toMatch(/<failure type="expired-token-reused"/);
  expect(readFileSync(join(dir, 'reports', 'readiness.md'), 'utf8')).toMatch(/^## Go-live readiness: ❌ not ready/);
}

describe('the readiness step of docs/ci.md', () => {
  it('npm: esign-sandbox report fails the job and writes the reports', async () => {
    const dir = scratchDir('esign-readiness-ci-');
    mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
    symlinkSync(ROOT, join(dir, 'node_modules', 'esign-sandbox'));
    writeFileSync(join(dir, 'node_modules', '.bin', 'esign-sandbox'), `#!/bin/sh\nexec node "${CLI}" "$@"\n`, {
      mode: 0o755,
    });
    writeFileSync(
      join(dir, 'step.sh'),
      recipe('The readiness report in CI').replaceAll('http://127.0.0.1:4010', sandbox.url),
    );
    const { code, stdout } = await status('bash', ['step.sh'], dir);
    expect(code, stdout).toBe(1);
    expect(stdout).toMatch(/ERROR\s+expired-token-reused/);
    expectReports(dir);
  }, 90_000);

  const why = pythonUnavailable();
  if (why) console.log(`the Python readiness step is not run here: ${why}`);
  it.skipIf(why !== undefined && !process.env.CI)(
    'Python: readiness.py does the same with the standard library',
    async () => {
      const dir = scratchDir('esign-readiness-py-');
      for (const file of ['esign_sandbox.py', 'readiness.py'])
        cpSync(join(ROOT, 'examples', 'python', file), join(dir, file));
      const step = recipe('The readiness report in CI, from Python')
        .replaceAll('http://127.0.0.1:4010', sandbox.url)
        .replace(/^python3 /m, `"${PYTHON}" `);
      writeFileSync(join(dir, 'step.sh'), step);
      const { code, stdout } = await status('bash', ['step.sh'], dir);
      expect(code, stdout).toBe(1);
      expect(stdout).toMatch(/ERROR\s+expired-token-reused/);
      expectReports(dir);
      const gone = await status(PYTHON, ['readiness.py', '--url', 'http://127.0.0.1:1'], dir);
      expect(gone.code).toBe(2);
      expect(gone.stdout).toMatch(/^readiness\.py: no report from http:\/\/127\.0\.0\.1:1: /);
    },
  );
});

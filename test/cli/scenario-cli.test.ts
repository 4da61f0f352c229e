/** `esign-sandbox --scenario`: the real CLI, as a user starts it (needs `npm run build`). */
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCli } from '../../src/config/cli-args.js';
import { scratchDir } from '../support/scratch.js';

const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run npm run build');
});

/** Runs the CLI until it prints "Ready" (then stops it) or exits; resolves with its exit code and output. */
function run(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready in')) child.kill('SIGTERM');
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('esign-sandbox --scenario', () => {
  it('takes the flag more than once', () => {
    expect(parseCli(['--scenario', 'a.yaml', '--scenario', 'happy-path'], {}).options.scenarios).toEqual([
      'a.yaml',
      'happy-path',
    ]);
    expect(parseCli([], { ESIGN_SANDBOX_SCENARIO: 'a.yaml, b.yaml' }).options.scenarios).toEqual(['a.yaml', 'b.yaml']);
  });

  it('loads bundled scenarios and files at start and says so', async () => {
    const { code, output } = await run([
      '--scenario',
      'happy-path',
      '--scenario',
      join(import.meta.dirname, '..', '..', 'scenarios', 'flaky-api.yaml'),
    ]);
    expect(code).toBe(0);
    expect(output).toMatch(/Scenario\s+happy-path \(bundled:happy-path\)/);
    expect(output).toMatch(/Scenario\s+flaky-api \(file:.*flaky-api\.yaml\)/);
    expect(output).toContain('frozen at');
  });

  it('refuses to start on an invalid file, exiting non-zero with the file, line:column, path and what was expected', async () => {
    const dir = scratchDir('cli-scenario-');
    const file = join(dir, 'late.yaml');
    writeFileSync(file, 'name: late\nrecipients:\n  - match: { position: 2 }\n    sign: three days\n');
    const { code, output } = await run(['--scenario', file]);
    expect(code).toBe(2);
    expect(output).toContain(
      `${file}:4:11: recipients[0].sign: expected a duration like "90s", "30m", "2h", "3d", "1h30m" or a number of seconds, got "three days"`,
    );
    expect(output).not.toContain('Ready');
  });
});

/** `esign-sandbox --scenario`: the real CLI, as a user starts it (needs `npm run build`). */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCli } from '../../src/config/cli-args.js';
import { CLI, runUntilReady } from '../support/cli-process.js';
import { scratchDir } from '../support/scratch.js';

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run npm run build');
});

/** The CLI run until it is ready (then stopped) or exits, with these variables added to the environment. */
const run = (args: string[], env: NodeJS.ProcessEnv = {}) => runUntilReady(args, { env: { ...process.env, ...env } });

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
    expect(output).toMatch(/Scenario\s+happy-path \(bundled:happy-path; plays for every tenant\)/);
    expect(output).toMatch(/Scenario\s+flaky-api \(file:.*flaky-api\.yaml; plays for every tenant\)/);
    expect(output).toContain('frozen at');
    // One platform, on loopback: the banner says it, no warning (docs/ci.md, "Scenarios and tenants").
    expect(output).not.toContain('ESIGN_SANDBOX_UNBOUND_SCENARIO');
  });

  it('warns once, on stderr, of unbound scenarios that drive signers when it listens beyond loopback (a container)', async () => {
    const { code, output } = await run(['--scenario', 'happy-path', '--scenario', 'slow-signer'], {
      ESIGN_SANDBOX_HOST: '0.0.0.0',
    });
    expect(code).toBe(0);
    const warnings = output.split('\n').filter((line) => line.includes('[ESIGN_SANDBOX_UNBOUND_SCENARIO]'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(
      'scenarios happy-path, slow-signer have no tenant key, so their recipient rules drive the signers of every tenant (it listens on 0.0.0.0)',
    );
  });

  it('says whom each scenario plays for: the tenant its tenant key names, else every tenant', async () => {
    const file = join(scratchDir('cli-scenario-'), 'ours.yaml');
    writeFileSync(file, 'name: ours\ntenant: sandboxApiKey\nrecipients:\n  - { match: {}, sign: 1h }\n');
    const { code, output } = await run(['--scenario', file, '--scenario', 'happy-path']);
    expect(code).toBe(0);
    expect(output).toMatch(/Scenario\s+ours \(file:.*ours\.yaml; plays for tenant sandboxApiKey only\)/);
    expect(output).toMatch(/Scenario\s+happy-path \(bundled:happy-path; plays for every tenant\)/);
  });

  it('refuses to start on a scenario bound to a tenant no platform has, saying how to make it', async () => {
    const file = join(scratchDir('cli-scenario-'), 'lost.yaml');
    writeFileSync(file, 'name: lost\ntenant: nobody\nrecipients:\n  - { match: {}, sign: 1h }\n');
    const { code, output } = await run(['--scenario', file]);
    expect(code).toBe(2);
    expect(output).toMatch(/scenario lost could not be loaded: .*tenant "nobody".*--fixtures/);
    expect(output).not.toContain('Ready');
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

/**
 * When `verify` cannot run (target down, a web page instead of the API, credentials refused, a bad option), it
 * exits 2 with one sentence saying which; `--help` explains the safety rules; the real CLI wires it all.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/index.js';
import { VERIFY_FLAG_NAMES, VERIFY_HELP, parseVerifyArgs, verifyEnvName } from '../../src/verify/args.js';
import { deadAddress, htmlSite, targetArgs, verify } from '../support/verify-kit.js';

const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');
let second: RunningSandbox;
beforeAll(async () => {
  second = await startSandbox();
});
afterAll(() => second.close());

/** The one line on stderr, checked to be one sentence. */
function sentence(err: string): string {
  const lines = err.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^esign-sandbox verify: cannot run: .+\.$/);
  return lines[0]!;
}

describe('verify exits 2 with one sentence when it cannot run', () => {
  it('when the target is down', async () => {
    const url = await deadAddress();
    const run = await verify(['--target', url, '--api-key', 'k', '--secret', 's']);
    expect(run.code).toBe(2);
    expect(sentence(run.err)).toContain(`${url} did not answer token create (platform) (ECONNREFUSED)`);
    expect(run.out).toBe('');
  });

  it('when the target answers HTML', async () => {
    const site = await htmlSite();
    try {
      const run = await verify(['--target', site.url, '--api-key', 'k', '--secret', 's']);
      expect(run.code).toBe(2);
      expect(sentence(run.err)).toContain(
        `${site.url} answered text/html, not JSON: it is not the Contract Signing Service API`,
      );
    } finally {
      await site.close();
    }
  });

  it('when the target refuses the credentials', async () => {
    const run = await verify(targetArgs(second, 'not-the-secret'));
    expect(run.code).toBe(2);
    expect(sentence(run.err)).toContain(
      `${second.url} refused the credentials (HTTP 401: "Invalid API key or secret"): check --api-key and --secret.`,
    );
  });

  it.each([
    [[], 'verify needs --target, --api-key, --secret (or their environment variables)'],
    [['--send'], '--send needs --email <address>'],
    [['--email', 'me@example.com'], '--email is used only with --send'],
    [['--only', 'recipient'], '--only recipient needs --send --email <address>'],
    [['--only', 'contracts'], '--only takes some of token, client'],
    [['--target', 'api.example.com', '--api-key', 'k', '--secret', 's'], '--target takes a base URL'],
    [['--frob'], "Unknown option '--frob'"],
    [['--timeout', '0'], '--timeout takes a number of seconds above 0, at most 3600'],
  ])('for a bad option %j', async (args, expected) => {
    const full = args.includes('--target') || !args.length ? args : [...targetArgs(second), ...args];
    const run = await verify(full);
    expect(run.code).toBe(2);
    expect(sentence(run.err)).toContain(expected);
  });
});

describe('verify options', () => {
  it('every flag has its ESIGN_SANDBOX_VERIFY_* twin, and flags win', () => {
    const env = {
      ESIGN_SANDBOX_VERIFY_TARGET: 'https://api.example.com/api/',
      ESIGN_SANDBOX_VERIFY_API_KEY: 'key',
      ESIGN_SANDBOX_VERIFY_SECRET: 'secret',
      ESIGN_SANDBOX_VERIFY_JSON: 'out.json',
      ESIGN_SANDBOX_VERIFY_RECORD: 'transcripts',
      ESIGN_SANDBOX_VERIFY_ONLY: 'contract,recipient',
      ESIGN_SANDBOX_VERIFY_SEND: 'true',
      ESIGN_SANDBOX_VERIFY_EMAIL: 'me+esign@example.com',
      ESIGN_SANDBOX_VERIFY_TIMEOUT: '2.5',
    };
    expect(Object.keys(env).sort()).toEqual(VERIFY_FLAG_NAMES.map(verifyEnvName).sort());
    const options = parseVerifyArgs([], env);
    expect(options).toMatchObject({
      target: 'https://api.example.com',
      apiKey: 'key',
      secret: 'secret',
      json: 'out.json',
      record: 'transcripts',
      send: true,
      email: 'me+esign@example.com',
      timeoutMs: 2500,
    });
    expect([...options.only!]).toEqual(['contract', 'recipient']);
    expect(parseVerifyArgs(['--secret', 'flag'], env).secret).toBe('flag');
    for (const name of VERIFY_FLAG_NAMES) expect(VERIFY_HELP).toContain(`--${name}`);
  });

  it('--help explains the safety rules, through the real CLI', () => {
    const run = spawnSync(process.execPath, [CLI, 'verify', '--help'], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Only --send --email <address> runs the recipient flow');
    expect(run.stdout).toContain('"esign-sandbox verify <date time>"');
    expect(run.stdout).toContain('it could not clean up');
    const main = spawnSync(process.execPath, [CLI, '--help'], { encoding: 'utf8' });
    expect(main.stdout).toContain('esign-sandbox verify --target <url>');
  });

  it('the real CLI exits 2 with the sentence when the target is down', async () => {
    const url = await deadAddress();
    const run = spawnSync(process.execPath, [CLI, 'verify', '--target', url, '--api-key', 'k', '--secret', 's'], {
      encoding: 'utf8',
    });
    expect(run.status).toBe(2);
    expect(sentence(run.stderr)).toContain(`${url} did not answer`);
  });
});

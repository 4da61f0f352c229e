/**
 * Every way the CLI can fail to start ends the same way (README "Exit status"): exit 2 and one line on stderr that
 * says what is wrong, never a stack trace of the bundle; and every flag has its ESIGN_SANDBOX_* twin, the way a
 * container sets them (docs/ci.md).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLAG_NAMES, HELP, envName, parseCli } from '../../src/config/cli-args.js';
import { scratchDir } from '../support/scratch.js';

const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');
const dir = scratchDir('esign-start-');
let blocker: Server;
let busyPort = 0;

beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run npm run build');
  writeFileSync(join(dir, 'corrupt.json'), '{not json');
  mkdirSync(join(dir, 'a-folder'));
  mkdirSync(join(dir, 'no-scenarios'));
  writeFileSync(join(dir, 'no-scenarios', 'notes.txt'), 'not a scenario');
  blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  busyPort = (blocker.address() as { port: number }).port;
});
afterAll(() => blocker.close());

function run(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, '--quiet', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe.concurrent('start-up failures', () => {
  it.each<[string, () => string[], RegExp]>([
    [
      '--data in a folder that does not exist',
      () => ['--port', '0', '--data', join(dir, 'missing', 'data.json')],
      /The folder of the data file .*missing\/data\.json does not exist: create .*missing first/,
    ],
    ['--data naming a folder', () => ['--port', '0', '--data', join(dir, 'a-folder')], /is a folder: give a file path/],
    [
      '--data holding something else than JSON',
      () => ['--port', '0', '--data', join(dir, 'corrupt.json')],
      /not valid JSON/,
    ],
    ['a port in use', () => ['--port', String(busyPort)], /Port \d+ on 127\.0\.0\.1 is already in use/],
    [
      'an address the machine does not have',
      () => ['--port', '0', '--host', '192.0.2.1'],
      /Cannot listen on host 192\.0\.2\.1/,
    ],
    ['--fixtures that do not exist', () => ['--port', '0', '--fixtures', join(dir, 'nope.yaml')], /Fixtures not found/],
    [
      '--scenario that does not exist',
      () => ['--port', '0', '--scenario', join(dir, 'nope.yaml')],
      /Scenario file not found/,
    ],
    [
      '--scenario, a folder with no scenario',
      () => ['--port', '0', '--scenario', join(dir, 'no-scenarios')],
      /holds no \.yaml or \.yml file/,
    ],
    [
      '--tls-cert that does not exist',
      () => ['--port', '0', '--tls-cert', join(dir, 'c.pem'), '--tls-key', join(dir, 'k.pem')],
      /Cannot read the TLS certificate/,
    ],
    [
      '--pid-file in a folder that does not exist',
      () => ['--port', '0', '--pid-file', join(dir, 'missing', 'pid')],
      /The folder of --pid-file .* does not exist/,
    ],
    [
      '--ready-file in a folder that does not exist',
      () => ['--port', '0', '--ready-file', join(dir, 'missing', 'ready')],
      /The folder of --ready-file .* does not exist/,
    ],
    [
      '--advertise-url without --store',
      () => ['--port', '0', '--advertise-url', 'http://esign-1:4010'],
      /--advertise-url is for team mode: give --store postgres:\/\/… too/,
    ],
    [
      '--store and --data both given',
      () => ['--port', '0', '--store', 'postgres://esign@127.0.0.1:1/esign', '--data', join(dir, 'd.json')],
      /--store and --data both say where the state lives: pick one/,
    ],
    ['a port that is not a number', () => ['--port', 'abc'], /--port takes a whole number/],
    ['a start time that is not one', () => ['--port', '0', '--start', 'yesterday'], /start must be an ISO 8601 time/],
  ])('%s: exit 2 and one line saying why', async (_case, args, message) => {
    const { code, stderr } = await run(args());
    expect(code).toBe(2);
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^esign-sandbox: /);
    expect(lines[0]).toMatch(message);
  });

  it('removes its pid file when it cannot start', async () => {
    const pidFile = join(dir, 'failed.pid');
    const { code } = await run(['--port', '0', '--pid-file', pidFile, '--data', join(dir, 'missing', 'd.json')]);
    expect(code).toBe(2);
    expect(existsSync(pidFile)).toBe(false);
  });
});

describe('environment variables', () => {
  /** A value for each flag's variable; a flag added without a line here fails the coverage test below. */
  const SAMPLES: Record<string, string> = {
    port: '0',
    host: '0.0.0.0',
    'api-key': 'k',
    secret: 's',
    data: '/data/sandbox.json',
    store: 'postgres://esign@db/esign',
    'advertise-url': 'http://esign-1:4010',
    fixtures: '/fixtures',
    seed: '7',
    clock: 'frozen',
    start: '2026-01-05T09:00:00Z',
    'max-body': '1mb',
    'max-upload': '2mb',
    'api-key-header': 'X-Key',
    tls: 'true',
    'tls-cert': '/c.pem',
    'tls-key': '/k.pem',
    'log-format': 'json',
    quiet: 'true',
    'journal-limit': '5',
    'rate-limit': '10/min',
    scenario: '/scenarios',
    'public-url': 'http://esign:4010',
    'cors-origin': 'http://localhost:3000',
    'allowed-host': 'esign',
    'pid-file': '/run/sandbox.pid',
    'ready-file': '/run/sandbox.ready',
  };
  const settable = FLAG_NAMES.filter((flag) => flag !== 'help' && flag !== 'version');

  it('has a sample for every flag', () => {
    expect(settable.filter((flag) => !(flag in SAMPLES))).toEqual([]);
  });

  it.each(settable)('--%s is settable as its ESIGN_SANDBOX_* variable, named in --help', (flag) => {
    expect(parseCli([], { [envName(flag)]: SAMPLES[flag] })).not.toEqual(parseCli([], {}));
    expect(HELP).toContain(envName(flag));
  });
});

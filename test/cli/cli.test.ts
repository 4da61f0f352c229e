/** The real CLI, as a user starts it: a child process on a free port. */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseCli } from '../../src/config/cli-args.js';
import { scratchDir } from '../support/scratch.js';

const ROOT = join(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const running: ChildProcess[] = [];

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run npm run build (npm install does it on prepare)');
});
afterEach(() => {
  for (const child of running.splice(0)) child.kill('SIGKILL');
});

interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

function start(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Started> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /API\s+(http:\/\/\S+)\/api/.exec(out);
      if (match && out.includes('Ready in')) resolve({ child, url: match[1]!, output: () => out, exited });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    void exited.then((code) => reject(new Error(`exited ${code} before ready:\n${out}`)));
  });
}

function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env } });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('close', (code) => resolve({ code, out }));
  });
}

const post = async (url: string, body: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
};

describe('esign-sandbox CLI', () => {
  it('starts on a free port, prints URL, credentials and a ready line, and answers a full flow', async () => {
    const { url, output } = await start(['--port', '0']);
    expect(output()).toMatch(/API key\s+sandboxApiKey/);
    expect(output()).toMatch(/Secret\s+sandboxSecret/);
    const token = (
      await post(`${url}/api/token`, { data: { action: 'create', apiKey: 'sandboxApiKey', secret: 'sandboxSecret' } })
    ).body.access_token;
    const client = await post(
      `${url}/api/client`,
      { data: { action: 'create', client: { fullname: 'Acme' } } },
      { authorization: `Bearer ${token}` },
    );
    expect(client.status).toBe(201);
    const clientToken = (
      await post(
        `${url}/api/token`,
        { action: 'create', clientKey: client.body.client.clientKey },
        { authorization: `Bearer ${token}` },
      )
    ).body.access_token;
    const auth = { authorization: `Bearer ${clientToken}` };
    const contract = await post(
      `${url}/api/contract`,
      { data: { action: 'create', contract: { name: 'NDA', value: '<p>x</p>' } } },
      auth,
    );
    const contractKey = contract.body.contract.contractKey;
    expect(
      (
        await post(
          `${url}/api/recipient`,
          { data: { action: 'send', contractKey, recipients: [{ email: 'a@b.test' }] } },
          auth,
        )
      ).status,
    ).toBe(200);
    const list = await post(`${url}/api/recipient`, { data: { action: 'list', contractKey } }, auth);
    expect(list.body.recipients).toHaveLength(1);
  });

  it('exits 0 on SIGTERM and on SIGINT', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const { child, exited } = await start(['--port', '0']);
      child.kill(signal);
      expect(await exited).toBe(0);
    }
  });

  it('prints only JSON lines with --log-format json, the stopping line included', async () => {
    const child = spawn(process.execPath, [join(ROOT, 'dist', 'cli.js'), '--port', '0', '--log-format', 'json'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    await new Promise<void>((resolve) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (/"event":"listening"/.test(stdout)) resolve();
      });
    });
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines.map((line) => JSON.parse(line) as { event?: string }).at(-1)).toEqual({
      event: 'stopping',
      signal: 'SIGTERM',
    });
  });

  it('takes options from ESIGN_SANDBOX_* variables, flags winning', async () => {
    const { url, output } = await start(['--port', '0'], {
      ESIGN_SANDBOX_API_KEY: 'fromEnv',
      ESIGN_SANDBOX_CLOCK: 'frozen',
      ESIGN_SANDBOX_START: '2030-01-01T00:00:00Z',
    });
    expect(output()).toMatch(/API key\s+fromEnv/);
    const health = (await (await fetch(`${url}/__sandbox/health`)).json()) as { now: string };
    expect(health.now).toBe('2030-01-01T00:00:00.000Z');
  });

  it('keeps state in a --data file across restarts', async () => {
    const file = join(scratchDir('esign-cli-'), 'state.json');
    const first = await start(['--port', '0', '--data', file]);
    const token = (
      await post(`${first.url}/api/token`, {
        data: { action: 'create', apiKey: 'sandboxApiKey', secret: 'sandboxSecret' },
      })
    ).body.access_token;
    await post(
      `${first.url}/api/contract`,
      { data: { action: 'create', clientKey: 'demoClient', contract: { name: 'Kept', value: 'x' } } },
      { authorization: `Bearer ${token}` },
    );
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toHaveProperty('contracts');
    const second = await start(['--port', '0', '--data', file]);
    expect(second.output()).toMatch(/loaded/);
    const list = await post(
      `${second.url}/api/contract`,
      { data: { action: 'list', clientKey: 'demoClient' } },
      { authorization: `Bearer ${token}` },
    );
    expect(list.body.contracts.map((c: { name: string }) => c.name)).toEqual(['Kept']);
  });

  it('prints help and version', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/--port/);
    expect(help.out).toMatch(/ESIGN_SANDBOX_PORT/);
    expect((await run(['--version'])).out.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it.each([
    [['--bogus'], /Unknown option '--bogus'/],
    [['--port', 'abc'], /--port takes a whole number/],
    [['--port', '70000'], /port must be a whole number from 0 to 65535/],
    [['--clock', 'sideways'], /--clock takes "real" or "frozen"/],
    [['--start', 'yesterday'], /start must be an ISO 8601 time/],
    [['--max-body', 'huge'], /max-body must be a positive size/],
    [['--fixtures', '/nonexistent/fixtures'], /Fixtures not found/],
  ])('refuses %j with a clear message and a non-zero status', async (args, message) => {
    const { code, out } = await run(args);
    expect(code).not.toBe(0);
    expect(out).toMatch(message);
  });

  it('says so and exits non-zero when the port is in use', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const { code, out } = await run(['--port', String(port)]);
      expect(code).not.toBe(0);
      expect(out).toMatch(new RegExp(`Port ${port} on 127.0.0.1 is already in use`));
    } finally {
      blocker.close();
    }
  });
});

describe('parseCli', () => {
  it('maps every flag onto SandboxOptions', () => {
    const { options } = parseCli(
      [
        '--port',
        '0',
        '--host',
        '0.0.0.0',
        '--api-key',
        'k',
        '--secret',
        's',
        '--data',
        'd.json',
        '--fixtures',
        'f',
        '--seed',
        '3',
        '--clock',
        'frozen',
        '--start',
        '2026-01-01T00:00:00Z',
        '--max-body',
        '1mb',
        '--api-key-header',
        'X-Key',
      ],
      {},
    );
    expect(options).toEqual({
      port: 0,
      host: '0.0.0.0',
      apiKey: 'k',
      secret: 's',
      data: 'd.json',
      fixtures: 'f',
      seed: 3,
      clock: 'frozen',
      start: '2026-01-01T00:00:00Z',
      maxBody: '1mb',
      apiKeyHeader: 'X-Key',
    });
  });
});

/**
 * `node --import esign-sandbox/register`: a program that keeps the production URL reaches the sandbox with fetch,
 * https.request, axios and undici's request, and its calls to other hosts go out untouched (docs/library.md,
 * "Keep the production URL").
 */
import { execFile } from 'node:child_process';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/index.js';
import { ROOT } from '../support/ci-kit.js';
import { ensureBuilt } from '../support/cli-process.js';
import { DEMO } from '../support/helpers.js';

const run = promisify(execFile);
const PROGRAM = join(import.meta.dirname, 'production-client.mjs');

let sandbox: RunningSandbox;
let other: Server;
let otherUrl: string;
const otherSaw: { path: string; host: string }[] = [];

beforeAll(async () => {
  ensureBuilt();
  sandbox = await startSandbox();
  other = createServer((req, res) => {
    otherSaw.push({ path: req.url ?? '', host: req.headers.host ?? '' });
    res.end('the other host answered');
  });
  await new Promise<void>((done) => other.listen(0, 'localhost', done));
  otherUrl = `http://localhost:${(other.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
  await new Promise((done) => other?.close(done));
});

/**
 * Runs the program with the register hook: from the package's own name, as `node --import` resolves it in a project;
 * or, as a tool started by someone else gets it (the vendor's MCP server run by an agent with `npx`), from
 * NODE_OPTIONS naming the built file, in a folder that is not the package's.
 */
function program(env: Record<string, string>, hook: 'flag' | 'NODE_OPTIONS' = 'flag') {
  const args = hook === 'flag' ? ['--import', 'esign-sandbox/register', PROGRAM] : [PROGRAM];
  return run(process.execPath, args, {
    cwd: hook === 'flag' ? ROOT : tmpdir(),
    env: { ...process.env, SFS_API_KEY: DEMO.apiKey, SFS_CLIENT_KEY: DEMO.clientKey, OTHER_URL: otherUrl, ...env },
    timeout: 60_000,
  });
}

/** The program's calls, by name: {status, body}. */
async function calls(
  env: Record<string, string>,
  hook: 'flag' | 'NODE_OPTIONS' = 'flag',
): Promise<Record<string, { status: number; body: any }>> {
  const { stdout } = await program(env, hook).catch((error: { stderr: string }) => {
    throw new Error(error.stderr);
  });
  const lines = stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { call: string; status: number; body: any });
  return Object.fromEntries(lines.map(({ call, ...answer }) => [call, answer]));
}

describe('node --import esign-sandbox/register', () => {
  it('sends fetch, https.request, axios and undici calls for the service host to the sandbox', async () => {
    const before = (await sandbox.requests({ path: '/api/*' })).length;
    const answers = await calls({ ESIGN_SANDBOX_URL: sandbox.url });
    expect(answers.fetch).toMatchObject({ status: 200, body: { clients: expect.any(Array) } });
    expect(answers['https.request']).toMatchObject({
      status: 201,
      body: { contract: { contractKey: expect.any(String) } },
    });
    expect(answers.axios).toMatchObject({ status: 200, body: { templates: expect.any(Array) } });
    expect(answers['undici.request']).toMatchObject({ status: 201, body: { message: 'Contract created' } });
    const journal = (await sandbox.requests({ path: '/api/*' })).slice(before);
    expect(journal.map((entry) => `${entry.method} ${entry.path} ${entry.status}`)).toEqual([
      'POST /api/client 200',
      'POST /api/contract 201',
      'POST /api/template 200',
      'POST /api/contract 201',
    ]);
  }, 60_000);

  it("runs the vendor's MCP server's calls with two environment variables: ESIGN_SANDBOX_URL and NODE_OPTIONS", async () => {
    // docs/compatibility.md, "The MCP server": its undici `request` to the fixed https://api.sendforsign.com/api/ base,
    // and an SDK's axios over https with the same fixed base; no hosts entry, no TLS, no port 443.
    const answers = await calls(
      { ESIGN_SANDBOX_URL: sandbox.url, NODE_OPTIONS: `--import=${join(ROOT, 'dist', 'register.js')}` },
      'NODE_OPTIONS',
    );
    expect(answers['undici.request']).toMatchObject({ status: 201, body: { message: 'Contract created' } });
    expect(answers.axios).toMatchObject({ status: 200, body: { templates: expect.any(Array) } });
  }, 60_000);

  it('leaves every other host alone', async () => {
    otherSaw.length = 0;
    const answers = await calls({ ESIGN_SANDBOX_URL: sandbox.url });
    expect(answers['other host by fetch']).toEqual({ status: 200, body: 'the other host answered' });
    expect(answers['other host by http']).toEqual({ status: 200, body: 'the other host answered' });
    const host = new URL(otherUrl).host;
    expect(otherSaw).toEqual([
      { path: '/by-fetch', host },
      { path: '/by-http', host },
    ]);
    expect(await sandbox.requests({ path: '/by-*' })).toEqual([]);
  }, 60_000);

  it('redirects the hosts named in ESIGN_SANDBOX_INTERCEPT_HOSTS too (a name that resolves nowhere)', async () => {
    const answers = await calls({
      ESIGN_SANDBOX_URL: sandbox.url,
      ESIGN_SANDBOX_INTERCEPT_HOSTS: 'sfs.internal.test, https://other.example.test',
      EXTRA_HOST: 'sfs.internal.test',
    });
    expect(answers['extra host']).toMatchObject({ status: 200, body: { status: 'ok' } });
  }, 60_000);

  it.each([
    [{}, /set ESIGN_SANDBOX_URL to the sandbox/],
    [{ ESIGN_SANDBOX_URL: 'ftp://127.0.0.1' }, /ESIGN_SANDBOX_URL must be an http:\/\/ or https:\/\/ URL/],
    [{ ESIGN_SANDBOX_URL: 'http://127.0.0.1:9', ESIGN_SANDBOX_INTERCEPT_HOSTS: '127.0.0.1' }, /would loop/],
  ])(
    'refuses to start the program with %j, saying why',
    async (env, message) => {
      const failed = await program({ ESIGN_SANDBOX_URL: '', ...env }).then(
        () => '',
        (error: { stderr: string }) => error.stderr,
      );
      expect(failed).toMatch(message);
    },
    60_000,
  );
});

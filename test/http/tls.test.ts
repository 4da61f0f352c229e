import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/index.js';
import { parseCli } from '../../src/config/cli-args.js';
import { disposeTls, generateCertificate } from '../../src/http/tls.js';

const run = promisify(execFile);

function get(url: string, options: { ca?: string } = {}): Promise<{ status: number; body: any }> {
  const request = url.startsWith('https:') ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(url, { ...(options.ca ? { ca: options.ca } : {}), agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a TLS sandbox with a certificate made at start', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ tls: true });
  });
  afterAll(() => sandbox.close());

  it('serves HTTPS to a client that trusts the certificate', async () => {
    expect(sandbox.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const res = await get(`${sandbox.url}/__sandbox/health`, { ca: sandbox.tls!.cert });
    expect(res).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  it('is valid for localhost too', async () => {
    const res = await get(`https://localhost:${sandbox.port}/__sandbox/health`, { ca: sandbox.tls!.cert });
    expect(res.status).toBe(200);
  });

  it('is refused by a client that does not trust the certificate', async () => {
    await expect(get(`${sandbox.url}/__sandbox/health`)).rejects.toThrow(/self[- ]signed/i);
  });

  it('answers plain HTTP on the same port with a JSON 403 that says to use https', async () => {
    const res = await get(`http://127.0.0.1:${sandbox.port}/api/contract`);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      code: 403,
      message: `This sandbox serves HTTPS only, like the real service; use https://127.0.0.1:${sandbox.port}/api/contract`,
    });
  });

  it('writes the certificate to a file that NODE_EXTRA_CA_CERTS can trust in another process', async () => {
    const script = `fetch(${JSON.stringify(`${sandbox.url}/__sandbox/health`)}).then((r) => r.json()).then((b) => console.log(b.status))`;
    const { stdout } = await run(process.execPath, ['-e', script], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: sandbox.tls!.certFile },
      timeout: 15_000,
    });
    expect(stdout.trim()).toBe('ok');
  });
});

describe('a TLS sandbox with your own certificate', () => {
  it('serves HTTPS with the given certificate and key files', async () => {
    const own = await generateCertificate('127.0.0.1');
    const sandbox = await startSandbox({ tlsCert: own.certFile, tlsKey: own.keyFile! });
    try {
      expect(sandbox.tls!.certFile).toBe(own.certFile);
      const res = await get(`${sandbox.url}/__sandbox/health`, { ca: own.cert });
      expect(res.status).toBe(200);
    } finally {
      await sandbox.close();
    }
    // Your own files are yours: closing the sandbox leaves them.
    expect(existsSync(own.certFile)).toBe(true);
    disposeTls(own);
  });

  it('removes the certificate it made when it closes', async () => {
    const sandbox = await startSandbox({ tls: true });
    const file = sandbox.tls!.certFile;
    expect(existsSync(file)).toBe(true);
    await sandbox.close();
    expect(existsSync(file)).toBe(false);
  });

  it('refuses a certificate without its key', async () => {
    const own = await generateCertificate('127.0.0.1');
    await expect(startSandbox({ tlsCert: own.certFile })).rejects.toThrow(/--tls-cert and --tls-key go together/);
    disposeTls(own);
  });

  it('refuses a certificate file that does not exist', async () => {
    await expect(startSandbox({ tlsCert: '/nonexistent/cert.pem', tlsKey: '/nonexistent/key.pem' })).rejects.toThrow(
      /Cannot read the TLS certificate/,
    );
  });
});

describe('the CLI with --tls', () => {
  it('prints where the certificate is and serves HTTPS with it; the file goes when it stops', async () => {
    const cli = resolve(import.meta.dirname, '..', '..', 'dist', 'cli.js');
    const child = spawn(process.execPath, [cli, '--port', '0', '--tls', '--log-format', 'json'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((done) => child.once('exit', done));
    try {
      const line = await new Promise<string>((done, fail) => {
        createInterface({ input: child.stdout }).once('line', done);
        child.once('exit', (code) => fail(new Error(`the CLI exited with ${code}`)));
      });
      const started = JSON.parse(line);
      expect(started.url).toMatch(/^https:\/\//);
      const res = await get(`${started.url}/__sandbox/health`, { ca: readFileSync(started.tlsCertFile, 'utf8') });
      expect(res.status).toBe(200);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(existsSync(started.tlsCertFile)).toBe(false);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it.each<[string[], NodeJS.ProcessEnv, object]>([
    [['--tls'], {}, { tls: true }],
    [['--tls-cert', 'c.pem', '--tls-key', 'k.pem'], {}, { tlsCert: 'c.pem', tlsKey: 'k.pem' }],
    [[], { ESIGN_SANDBOX_TLS: 'true' }, { tls: true }],
    [[], { ESIGN_SANDBOX_TLS: '0' }, {}],
    [['--journal-limit', '50'], {}, { journalLimit: 50 }],
  ])('reads %j %j', (argv, env, options) => {
    expect(parseCli(argv, env).options).toEqual(options);
  });

  it('refuses a TLS variable that is not true or false', () => {
    expect(() => parseCli([], { ESIGN_SANDBOX_TLS: 'maybe' })).toThrow(/true or false/);
  });
});

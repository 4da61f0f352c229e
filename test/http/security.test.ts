/**
 * The Host allow-list and the cross-site defences (README "Security"): only the sandbox's own names are answered;
 * no page on another site drives the control API, the dashboard or the recipient page (forms, no-cors fetches),
 * while curl-like clients and the sandbox's own pages still do.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestSandbox, testSandbox } from '../support/helpers.js';
import { parseCli } from '../../src/config/cli-args.js';
import { ConfigError, resolveConfig } from '../../src/config/options.js';
import { startSandbox } from '../../src/index.js';
import { createContract } from '../support/contract-walk.js';

const FROZEN = { clock: 'frozen', start: '2026-11-21T09:00:00Z' } as const;

describe('the Host allow-list', () => {
  let t: TestSandbox;
  beforeAll(async () => {
    t = await testSandbox({
      ...FROZEN,
      host: 'devbox.lan',
      publicUrl: 'https://sandbox.example.test/base',
      allowedHosts: ['esign'],
    });
  });
  afterAll(() => t.close());
  const at = (host: string, path = '/__sandbox/health') => t.sandbox.app.request(`http://${host}${path}`);

  it.each([
    'localhost',
    'localhost:4010',
    'app.localhost',
    '127.0.0.1:4010',
    '127.8.9.10',
    '[::1]:4010',
    '10.0.0.7',
    'devbox.lan',
    'sandbox.example.test',
    'esign:4010',
    'ESIGN',
  ])('answers requests for %s', async (host) => {
    expect((await at(host)).status).toBe(200);
  });

  it.each(['evil.example', 'evil.example:4010', 'localhost.evil.example', 'esign.evil.example'])(
    'refuses %s with 403 naming the host and the flag, on every room',
    async (host) => {
      for (const path of ['/__sandbox/state', '/api/contract', '/sharing/x', '/__sandbox/ui', '/docs']) {
        const res = await at(host, path);
        expect(res.status, path).toBe(403);
        const name = host.replace(/:\d+$/, '');
        expect(((await res.json()) as { message: string }).message).toContain(`--allowed-host ${name}`);
      }
    },
  );

  it('answers any name with --allowed-host *', async () => {
    const open = await testSandbox({ allowedHosts: ['*'] });
    try {
      expect((await open.sandbox.app.request('http://evil.example/__sandbox/health')).status).toBe(200);
    } finally {
      await open.close();
    }
  });

  it('reads the Host header on a real port', async () => {
    const running = await startSandbox({});
    try {
      const status = (host: string) =>
        new Promise<number>((resolve, reject) => {
          const req = httpRequest(`${running.url}/__sandbox/health`, { headers: { host } }, (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          });
          req.on('error', reject);
          req.end();
        });
      expect(await status(`localhost:${running.port}`)).toBe(200);
      expect(await status(`rebound.example:${running.port}`)).toBe(403);
    } finally {
      await running.close();
    }
  });

  it('is a repeatable flag, a comma list and ESIGN_SANDBOX_ALLOWED_HOST; a URL is refused', () => {
    expect(parseCli(['--allowed-host', 'esign', '--allowed-host', 'a.test,B.test'], {}).options.allowedHosts).toEqual([
      'esign',
      'a.test',
      'B.test',
    ]);
    expect(parseCli([], { ESIGN_SANDBOX_ALLOWED_HOST: '*' }).options.allowedHosts).toEqual(['*']);
    expect(resolveConfig({ allowedHosts: ['B.test'] }, { port: 0 }).allowedHosts).toEqual(['b.test']);
    for (const bad of ['http://esign', 'esign:4010', 'a b'])
      expect(() => resolveConfig({ allowedHosts: [bad] }, { port: 0 }), bad).toThrow(ConfigError);
  });
});

describe('cross-site requests to the control API, the dashboard and the recipient page', () => {
  let t: TestSandbox;
  let recipientKey: string;
  beforeAll(async () => {
    t = await testSandbox(FROZEN);
    const auth = await t.demoAuth();
    const created = await createContract(
      t,
      auth,
      { name: 'Forged', value: '<p>x</p>' },
      [{ fullname: 'Ann', email: 'ann@example.test', action: 'sign' }],
      { clientKey: 'demoClient' },
    );
    const list = await t.post(
      '/api/recipient',
      { data: { action: 'list', clientKey: 'demoClient', contractKey: created.body.contract.contractKey } },
      auth,
    );
    recipientKey = list.body.recipients[0].recipientKey;
  });
  afterAll(() => t.close());

  const state = async () => JSON.stringify((await t.control('/state')).body);
  const cross = [
    ['a form post from another site', { 'sec-fetch-site': 'cross-site', origin: 'http://evil.example' }],
    ['a post from another port of localhost', { 'sec-fetch-site': 'same-site', origin: 'http://localhost:5173' }],
    ['an Origin of another origin, no Sec-Fetch-Site', { origin: 'http://127.0.0.1:9999' }],
    ['an opaque Origin', { origin: 'null' }],
  ] as const;
  const attempts = [
    ['POST', '/__sandbox/reset', 'application/x-www-form-urlencoded', ''],
    ['POST', '/__sandbox/clock/advance', 'text/plain', '{"by":"30d"}'],
    ['POST', '/__sandbox/clock/freeze', undefined, undefined],
    ['POST', '/__sandbox/recipients/RKEY/sign', 'text/plain', '{"signature":"forged"}'],
    ['POST', '/__sandbox/scenarios', 'text/plain', 'name: evil\nrules: []\n'],
    ['POST', '/__sandbox/ui/reset', 'application/x-www-form-urlencoded', 'back=/__sandbox/ui'],
    ['POST', '/__sandbox/ui/clock/advance', 'application/x-www-form-urlencoded', 'by=30d'],
    ['POST', '/sharing/RKEY', 'application/x-www-form-urlencoded', 'verb=sign&signature=forged'],
  ] as const;

  it.each(cross)('refuses %s everywhere, and nothing changes', async (_name, headers) => {
    const before = await state();
    for (const [method, path, type, body] of attempts) {
      const res = await t.sandbox.app.request(path.replace('RKEY', recipientKey), {
        method,
        headers: { ...headers, ...(type ? { 'content-type': type } : {}) },
        ...(body !== undefined ? { body } : {}),
      });
      expect(res.status, path).toBe(403);
    }
    expect(await state()).toBe(before);
  });

  it.each([
    ['multipart/form-data', 'by=1h'],
    ['multipart/form-data; boundary=x', 'not parts at all'],
    ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="by"\r\n\r\n1h'],
  ])(
    'answers a same-origin page post typed %s that is no form with a JSON 400, changing nothing',
    async (type, body) => {
      const before = await state();
      for (const path of ['/__sandbox/ui/clock/advance', '/__sandbox/ui/reset', `/sharing/${recipientKey}`]) {
        const res = await t.sandbox.app.request(path, { method: 'POST', headers: { 'content-type': type }, body });
        expect(res.status, path).toBe(400);
        expect(await res.json(), path).toEqual({
          code: 400,
          message: expect.stringMatching(/^The form could not be read as multipart\/form-data: /),
        });
      }
      expect(await state()).toBe(before);
    },
  );

  it.each([
    ['text/plain', '{"by":"1h"}'],
    ['application/x-www-form-urlencoded', 'by=1h'],
    ['multipart/form-data; boundary=x', '--x--'],
    ['text/plain', ''],
  ])('refuses a control post with Content-Type %s (a page may send it without a preflight)', async (type, body) => {
    const before = await state();
    const res = await t.sandbox.app.request('/__sandbox/clock/advance', {
      method: 'POST',
      headers: { 'content-type': type },
      body,
    });
    expect(res.status).toBe(415);
    expect(await state()).toBe(before);
  });

  it('still takes curl-like posts with no body, JSON, YAML scenarios, and same-origin pages', async () => {
    const freeze = await t.sandbox.app.request('/__sandbox/clock/unfreeze', { method: 'POST' });
    expect(freeze.status).toBe(200);
    const yaml = await t.sandbox.app.request('/__sandbox/scenarios', {
      method: 'POST',
      headers: { 'content-type': 'application/yaml' },
      body: 'name: harmless\nrecipients:\n  - sign: 1h\n',
    });
    expect(yaml.status).toBe(201);
    const own = await t.sandbox.app.request('http://localhost/__sandbox/clock/freeze', {
      method: 'POST',
      headers: { origin: 'http://localhost', 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(own.status).toBe(200);
    const form = await t.sandbox.app.request('http://localhost/__sandbox/ui/clock/advance', {
      method: 'POST',
      headers: { origin: 'http://localhost', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'by=1h&back=/__sandbox/ui',
    });
    expect(form.status).toBe(303);
  });
});

/**
 * CORS (README "Security"): pages on other origins call /api and load the documents it hands out; every /api answer,
 * errors included, carries Access-Control-Allow-Origin; a preflight answers 204 with the methods and headers the
 * real clients send; `--cors-origin` narrows the origins; the control API, the pages and the docs stay closed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, type TestSandbox, testSandbox } from '../support/helpers.js';
import { makePdf } from '../support/documents-kit.js';
import { parseCli } from '../../src/config/cli-args.js';
import { ConfigError, resolveConfig } from '../../src/config/options.js';
import { plainResources, resources } from '../../src/resources/index.js';
import { documentResources } from '../../src/resources/documents.js';

const PAGE = 'http://127.0.0.1:5173';

function preflight(t: TestSandbox, path: string, origin = PAGE, headers = 'content-type,authorization') {
  return t.sandbox.app.request(path, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': headers },
  });
}

let t: TestSandbox;
let contractKey: string;
beforeAll(async () => {
  t = await testSandbox({ seed: 7, apiKeyHeader: 'X-My-Key' });
  const res = await t.post(
    '/api/contract',
    { data: { action: 'create', clientKey: DEMO.clientKey, contract: { name: 'CORS', contractType: 'pdf' } } },
    { apiKey: DEMO.apiKey, header: 'x-my-key' },
  );
  contractKey = res.body.contract.contractKey;
  const form = new FormData();
  form.set('pdf', new Blob([new Uint8Array(await makePdf(1))], { type: 'application/pdf' }), 'c.pdf');
  const up = await t.request(`/api/upload_pdf?contractKey=${contractKey}&clientKey=${DEMO.clientKey}`, {
    method: 'POST',
    headers: { 'x-my-key': DEMO.apiKey },
    body: form,
  });
  expect(up.status).toBe(201);
});
afterAll(() => t.close());

const apiPaths = [
  ...[...resources, ...plainResources].map((r) => r.path),
  ...documentResources.map(({ path }) => path.replace(/\{[^}]+\}/g, 'KEY')),
];

describe('CORS on /api', () => {
  it.each(apiPaths)('answers a preflight of %s with 204 and what a browser needs', async (path) => {
    const res = await preflight(t, path, PAGE, 'content-type,authorization,x-sendforsign-key,x-sendforsign-component');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(res.headers.get('access-control-allow-methods')?.split(',')).toEqual(['GET', 'POST', 'PUT', 'DELETE']);
    const allowed = res.headers.get('access-control-allow-headers')?.split(',');
    for (const header of [
      'content-type',
      'authorization',
      'x-sendforsign-key',
      'x-service-key',
      'x-sendforsign-component',
      'x-my-key',
    ])
      expect(allowed).toContain(header);
    expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('vary')).toContain('Origin');
  });

  it.each([
    [
      'a success',
      () => t.request('/api/event_status', { headers: { origin: PAGE, 'x-sendforsign-key': DEMO.apiKey } }),
      200,
    ],
    [
      'a JSON:API content type',
      () =>
        t.request('/api/contract', {
          method: 'POST',
          headers: { origin: PAGE, 'content-type': 'application/vnd.api+json', 'x-sendforsign-key': DEMO.apiKey },
          body: JSON.stringify({ data: { action: 'list', clientKey: DEMO.clientKey } }),
        }),
      200,
    ],
    ['no credentials', () => t.request('/api/event_status', { headers: { origin: PAGE } }), 401],
    ['a bad body', () => t.request('/api/contract', { method: 'POST', headers: { origin: PAGE }, body: 'x' }), 415],
    ['an unknown path', () => t.request('/api/nothing-here', { headers: { origin: PAGE } }), 404],
    ['a method no route answers', () => t.request('/api/contract', { headers: { origin: PAGE } }), 405],
    [
      "a share link's PDF, with no credentials",
      () => t.request('/api/recipient_download_pdf?shareLink=nope', { headers: { origin: PAGE } }),
      404,
    ],
  ])('puts Access-Control-Allow-Origin on %s', async (_name, send, status) => {
    const res = await send();
    expect(res.status).toBe(status);
    expect(res.headers.get('access-control-allow-origin')).toBe(PAGE);
  });

  it('puts it on document downloads and on an injected fault', async () => {
    const headers = { origin: PAGE, 'x-sendforsign-key': DEMO.apiKey };
    for (const path of [
      `/api/contract_pdf/${contractKey}?clientKey=${DEMO.clientKey}`,
      `/api/download_pdf?contractKey=${contractKey}&clientKey=${DEMO.clientKey}`,
    ]) {
      const res = await t.sandbox.app.request(path, { headers });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      expect(res.headers.get('access-control-allow-origin'), path).toBe(PAGE);
    }
    await t.control('/faults', { match: { path: '/api/event_status' }, status: 503, times: 1 });
    const faulted = await t.request('/api/event_status', { headers });
    expect(faulted.status).toBe(503);
    expect(faulted.headers.get('access-control-allow-origin')).toBe(PAGE);
  });

  it('answers * to a request with no Origin (curl, servers)', async () => {
    const res = await t.request('/api/event_status', { headers: { 'x-sendforsign-key': DEMO.apiKey } });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it.each([
    ['GET', '/__sandbox/state'],
    ['GET', '/__sandbox/health'],
    ['POST', '/__sandbox/reset'],
    ['GET', '/__sandbox/ui'],
    ['GET', '/docs'],
    ['GET', '/openapi.json'],
    ['GET', '/sharing/some-link'],
  ])('keeps %s %s closed to other origins', async (method, path) => {
    const res = await t.sandbox.app.request(path, { method: 'OPTIONS', headers: { origin: PAGE } });
    expect(res.status).not.toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const plain = await t.sandbox.app.request(path, {
      method,
      headers: { origin: PAGE, 'content-type': 'application/json' },
      ...(method === 'POST' ? { body: '{}' } : {}),
    });
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('--cors-origin', () => {
  it('lets only the given origins read /api answers', async () => {
    const narrow = await testSandbox({ corsOrigins: ['http://localhost:3000', 'https://app.example.test'] });
    try {
      for (const origin of ['http://localhost:3000', 'https://app.example.test']) {
        expect((await preflight(narrow, '/api/contract', origin)).headers.get('access-control-allow-origin')).toBe(
          origin,
        );
      }
      const other = await preflight(narrow, '/api/contract', PAGE);
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      const read = await narrow.request('/api/event_status', {
        headers: { origin: PAGE, 'x-sendforsign-key': DEMO.apiKey },
      });
      expect(read.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await narrow.close();
    }
  });

  it('is a repeatable flag, a comma list, and ESIGN_SANDBOX_CORS_ORIGIN', () => {
    expect(
      parseCli(['--cors-origin', 'http://a.test', '--cors-origin', 'http://b.test:8080,https://c.test'], {}).options
        .corsOrigins,
    ).toEqual(['http://a.test', 'http://b.test:8080', 'https://c.test']);
    expect(parseCli([], { ESIGN_SANDBOX_CORS_ORIGIN: 'http://a.test, http://b.test' }).options.corsOrigins).toEqual([
      'http://a.test',
      'http://b.test',
    ]);
    expect(resolveConfig({ corsOrigins: ['http://a.test/'] }, { port: 0 }).corsOrigins).toEqual(['http://a.test']);
  });

  it.each(['localhost:3000', 'http://a.test/app', 'ftp://a.test', '*'])('refuses %s, naming the form', (origin) => {
    expect(() => resolveConfig({ corsOrigins: [origin] }, { port: 0 })).toThrow(ConfigError);
    expect(() => resolveConfig({ corsOrigins: [origin] }, { port: 0 })).toThrow(/like http:\/\/localhost:3000/);
  });
});

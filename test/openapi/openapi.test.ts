import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument, openApiDocumentInSteps } from '../../src/openapi/document.js';
import { resources } from '../../src/resources/index.js';
import { API_ACTION_COUNT, API_PATHS, type TestSandbox, testSandbox } from '../support/helpers.js';
import { checkApiResponse } from '../support/openapi-check.js';

let t: TestSandbox;
let doc: any;
beforeAll(async () => {
  t = await testSandbox({ apiKeyHeader: 'X-Provider-Key' });
  const res = await t.request('/openapi.json');
  expect(res.status).toBe(200);
  doc = res.body;
});
afterAll(() => t.close());

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document for a public validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('lists every /api path with one POST whose body is a oneOf of all its actions', () => {
    expect(resources.map((r) => r.path)).toEqual(API_PATHS);
    for (const resource of resources) {
      const op = doc.paths[resource.path]?.post;
      expect(op, resource.path).toBeDefined();
      const variants = op.requestBody.content['application/json'].schema.oneOf;
      expect(variants).toHaveLength(Object.keys(resource.actions).length);
      for (const [name, action] of Object.entries(resource.actions)) {
        expect(op.description).toContain(`\`${action.wireName ?? name}\``);
        expect(op.requestBody.content['application/json'].examples[name]?.value, `${resource.path} ${name}`).toEqual(
          action.example,
        );
      }
    }
  });

  it('gives every action an example that its own zod schema accepts', () => {
    expect(
      resources.flatMap((r) => Object.keys(r.actions)),
      `the ${API_ACTION_COUNT} actions of the API`,
    ).toHaveLength(API_ACTION_COUNT);
    for (const resource of resources) {
      for (const [name, action] of Object.entries(resource.actions)) {
        expect(action.example, `${resource.path} ${name} has no example`).toBeDefined();
        const parsed = action.schema.safeParse(action.example);
        expect(parsed.success, `${resource.path} ${name}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      }
    }
  });

  it('describes request bodies with JSON Schemas that accept the examples and refuse a wrong action', () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    for (const resource of resources) {
      const content = doc.paths[resource.path].post.requestBody.content['application/json'];
      const validate = ajv.compile(content.schema);
      expect(Object.keys(content.examples), resource.path).toEqual(Object.keys(resource.actions));
      for (const [name, example] of Object.entries<any>(content.examples)) {
        expect(validate(example.value), `${resource.path} ${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
      }
      expect(validate({ data: { action: 'no-such-action' } })).toBe(false);
    }
  });

  it('takes every kind of API fault on POST /__sandbox/faults, connection faults and dribble included', () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const validate = ajv.compile(doc.paths['/__sandbox/faults'].post.requestBody.content['application/json'].schema);
    for (const connection of ['reset', 'empty', 'malformed-chunk', 'garbage'])
      expect(validate({ match: { path: '/api/contract' }, connection, times: 1 }), connection).toBe(true);
    expect(validate({ dribble: '5s', probability: 0.5, for: '1h' })).toBe(true);
    expect(validate({ connection: 'drop' })).toBe(false);
  });

  it('documents every control route the sandbox mounts', () => {
    const mounted = t.sandbox.app.routes
      .filter((r) => r.path.startsWith('/__sandbox') && r.method !== 'ALL')
      // The unknown-verb catch-all is mounted as a wildcard and documented as `{verb}`: a `:verb` parameter beside
      // the verbs' own routes would put Hono on its slower router (http/control-api/index.ts).
      .map((r) => ({
        method: r.method,
        path: r.path.replace(/\/recipients\/:recipientKey\/\*$/, '/recipients/:recipientKey/:verb'),
      }))
      .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/\/$/, '').replace(/:(\w+)/g, '{$1}')}`);
    const documented = Object.entries<any>(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method} ${path}`),
    );
    expect(mounted.length).toBeGreaterThan(10);
    for (const route of mounted) expect(documented, route).toContain(route);
  });

  it('names the configured API-key header and the serving address', () => {
    expect(doc.components.securitySchemes.apiKeyHeader).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-Provider-Key',
    });
    expect(doc.servers[0].url).toBe('http://localhost');
  });
});

describe('the document built in steps (the first GET /openapi.json)', () => {
  it('is the same document, built with turns of the event loop between its steps', async () => {
    let turns = 0;
    let done = false;
    const tick = () => {
      turns++;
      if (!done) setImmediate(tick);
    };
    setImmediate(tick);
    const stepped = await openApiDocumentInSteps({ apiKeyHeader: 'X-Provider-Key' });
    done = true;
    // One turn per resource and control operation: far more than the handful a single build would leave.
    expect(turns).toBeGreaterThan(50);
    expect(stepped).toEqual(openApiDocument({ apiKeyHeader: 'X-Provider-Key' }));
  });
});

describe('the docs page', () => {
  it('is an HTML page that loads the OpenAPI document', async () => {
    const res = await t.request('/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.body).toContain("url: '/openapi.json'");
  });

  it('links only its own assets and turns the validator badge off', async () => {
    const page = (await t.request('/docs')).body as string;
    expect(page).toContain('validatorUrl: null');
    const links = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(links).toHaveLength(3);
    for (const link of links) expect(link).toMatch(/^\/docs\/assets\//);
    expect(page).not.toMatch(/https?:\/\//);
  });

  it("serves Swagger UI's script and stylesheet from the installed swagger-ui-dist, cacheable for good", async () => {
    const { version } = JSON.parse(
      readFileSync(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'), 'utf8'),
    );
    for (const [file, type] of [
      ['swagger-ui-bundle.js', 'text/javascript'],
      ['swagger-ui.css', 'text/css'],
      ['favicon-32x32.png', 'image/png'],
    ]) {
      const res = await t.sandbox.app.request(`/docs/assets/${file}?v=${version}`);
      expect(res.status, file).toBe(200);
      expect(res.headers.get('content-type'), file).toContain(type);
      expect(res.headers.get('cache-control'), file).toBe('public, max-age=31536000, immutable');
      expect(
        Buffer.from(await res.arrayBuffer()).equals(
          readFileSync(createRequire(import.meta.url).resolve(`swagger-ui-dist/${file}`)),
        ),
        file,
      ).toBe(true);
    }
  });

  it('revalidates an asset asked for without the version, and answers 304 to its ETag', async () => {
    const first = await t.sandbox.app.request('/docs/assets/swagger-ui.css');
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('public, no-cache');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"swagger-ui-dist-\d+\.\d+\.\d+"$/);
    const again = await t.sandbox.app.request('/docs/assets/swagger-ui.css', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('answers 404 for any other file under /docs/assets', async () => {
    for (const file of ['index.html', 'package.json', '..%2Fpackage.json', 'swagger-ui.js']) {
      expect((await t.request(`/docs/assets/${file}`)).status, file).toBe(404);
    }
  });
});

describe('response schemas', () => {
  it("describes every /api operation's success body, closed, so a wrong field name fails the check every test runs", () => {
    expect(() =>
      checkApiResponse('POST', '/api/contract', 200, { contracts: [], code: '200', message: 'Contracts found' }),
    ).not.toThrow();
    expect(() =>
      checkApiResponse('POST', '/api/contract', 200, { contract: [], code: '200', message: 'Contracts found' }),
    ).toThrow(/does not match/);
    expect(() =>
      checkApiResponse('POST', '/api/contract', 201, {
        contract: { createTime: 'x', contractKey: 'k', extra: 1 },
        code: '201',
        message: 'm',
      }),
    ).toThrow(/does not match/);
    expect(() => checkApiResponse('POST', '/api/contract', 202, { code: '202', message: 'm' })).toThrow(
      /does not list/,
    );
    expect(() =>
      checkApiResponse('GET', '/api/event_status', 200, [{ id: 1, name: 'Created', colour: '#fff' }]),
    ).toThrow(/does not match/);
  });

  it('documents the injected fault statuses and the plain endpoints, and control operations take no credentials', () => {
    for (const status of ['429', '500', '503'])
      expect(doc.paths['/api/contract'].post.responses[status], status).toBeDefined();
    expect(Object.keys(doc.paths['/api/contract_share_link']).sort()).toEqual(['delete', 'get', 'post', 'put']);
    expect(doc.paths['/api/contract_event'].get.parameters.map((p: { name: string }) => p.name)).toEqual([
      'contractKey',
      'clientKey',
    ]);
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      if (!path.startsWith('/__sandbox')) continue;
      for (const op of Object.values<any>(item)) expect(op.security, path).toEqual([]);
    }
  });
});

/**
 * Property-based fuzzing of every operation (issue 7 item 2): each action's example body, mutated into
 * something hostile, must get a JSON answer with a message and no 5xx; the process must stay healthy; a
 * refused request must leave the store (and clock) exactly as it was; nothing may reach Object.prototype.
 * The operations come from the ResourceSpec tables and the control API's own route list, so a new action or
 * control endpoint is fuzzed without touching this file. Fixed seed, bounded runs: FUZZ_RUNS=2000 hunts longer.
 */
import fc from 'fast-check';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { Scope } from '../../src/resources/action.js';
import { plainResources, resources } from '../../src/resources/index.js';
import {
  FUZZ_RUNS,
  FUZZ_SEED,
  PROTO_KEYS,
  POLLUTER,
  contentType,
  fillExample,
  hostileBody,
  objectPaths,
  plant,
  render,
} from '../support/fuzz-kit.js';
import { type Answer, DEMO, FROZEN, type TestSandbox, testSandbox } from '../support/helpers.js';

// A long hunt (FUZZ_RUNS=2000) takes minutes per operation; the default run takes a fraction of a second.
vi.setConfig({ testTimeout: 20_000 + FUZZ_RUNS * 500 });

const prototypeKeys = () =>
  [Object.prototype, Array.prototype, Function.prototype].map((p) => Object.getOwnPropertyNames(p).sort().join());
const pristine = prototypeKeys();

function expectPrototypesClean(): void {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(([] as unknown as Record<string, unknown>).polluted).toBeUndefined();
  expect(prototypeKeys()).toEqual(pristine);
}

interface World {
  t: TestSandbox;
  keys: Record<string, string>;
}

/** A fresh sandbox with one of everything an example can name: a sent contract with a recipient, a webhook, a client token. */
async function world(): Promise<World> {
  const t = await testSandbox(FROZEN);
  const auth = await t.demoAuth();
  const created = await t.post(
    '/api/contract',
    {
      data: {
        action: 'create',
        contract: { name: 'Fuzz target', value: '<p>x</p>' },
        recipients: [{ email: 'r@example.com', fullname: 'R', action: 'sign' }],
      },
    },
    auth,
  );
  const contractKey = created.body.contract.contractKey as string;
  const recipients = await t.post('/api/recipient', { data: { action: 'list', contractKey } }, auth);
  const hooks = await t.post(
    '/api/webhook',
    { data: { action: 'create', webhooks: [{ url: 'http://127.0.0.1:9/hook', signed: true }] } },
    auth,
  );
  const placeholder = await t.post(
    '/api/placeholder',
    { data: { action: 'create', contractKey, placeholder: { name: 'fuzz', value: 'x' } } },
    auth,
  );
  const link = await t.request('/api/contract_share_link', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${(auth as { bearer: string }).bearer}` },
    body: JSON.stringify({ contractKey }),
  });
  return {
    t,
    keys: {
      API_KEY: DEMO.apiKey,
      SECRET: DEMO.secret,
      CLIENT_KEY: DEMO.clientKey,
      USER_KEY: DEMO.userKey,
      TEMPLATE_KEY: DEMO.templateKey,
      CONTRACT_KEY: contractKey,
      RECIPIENT_KEY: recipients.body.recipients[0].recipientKey,
      WEBHOOK_KEY: hooks.body.webhooks[0].webhookKey,
      PLACEHOLDER_KEY: placeholder.body.placeholder.placeholderKey,
      SHARE_LINK: link.body.shareLink.shareLink,
      CLIENT_TOKEN: await t.clientToken(),
    },
  };
}

type AuthKind = 'client' | 'platform' | 'apiKey' | 'none' | 'garbage';

function authArbitrary(scope: Scope): fc.Arbitrary<AuthKind> {
  const usual: AuthKind = scope === 'client' ? 'client' : scope === 'platform' ? 'platform' : 'none';
  return fc.oneof(
    { weight: 10, arbitrary: fc.constant(usual) },
    { weight: 1, arbitrary: fc.constantFrom<AuthKind>('client', 'platform', 'apiKey', 'none', 'garbage') },
  );
}

async function headersFor(t: TestSandbox, kind: AuthKind): Promise<Record<string, string>> {
  switch (kind) {
    case 'client':
      return { authorization: `Bearer ${await t.clientToken()}` };
    case 'platform':
      return { authorization: `Bearer ${await t.platformToken()}` };
    case 'apiKey':
      return { 'x-service-key': DEMO.apiKey };
    case 'garbage':
      return { authorization: 'Bearer \u00ff__proto__' };
    case 'none':
      return {};
  }
}

/** Everything a refused request must not change: the store, the clock, the outbox and the delivery log. */
function snapshot(t: TestSandbox): string {
  const { store, clock } = t.sandbox.services;
  return JSON.stringify({
    data: store.data,
    // A running clock (after an accepted unfreeze) moves by itself: only a frozen clock's time is state a request sets.
    now: clock.isFrozen ? clock.now() : 'running',
    emails: t.sandbox.control.outbox.list().length,
    deliveries: t.sandbox.control.webhooks.deliveries().length,
  });
}

async function send(
  t: TestSandbox,
  path: string,
  text: string,
  type: string | undefined,
  headers: Record<string, string>,
): Promise<Answer> {
  return t.request(path, {
    method: 'POST',
    headers: { ...headers, ...(type === undefined ? {} : { 'content-type': type }) },
    body: text,
  });
}

/** The contract every answer keeps, whatever was sent. */
function expectWellFormed(res: Answer, sent: string): void {
  const context = `answer ${res.status} ${JSON.stringify(res.body).slice(0, 300)} to ${sent.slice(0, 300)}`;
  expect(res.status, context).toBeLessThan(500);
  expect(typeof res.body, context).toBe('object');
  expect(res.headers.get('content-type'), context).toMatch(/^application\/json/);
  if (res.status >= 400) {
    expect(res.body.code, context).toBe(res.status);
    expect(typeof res.body.message, context).toBe('string');
    expect(res.body.message.length, context).toBeGreaterThan(0);
    expect(res.body.message.length, `${context}: message stays readable`).toBeLessThan(2000);
    if (res.body.errors !== undefined) {
      expect(Array.isArray(res.body.errors), context).toBe(true);
      expect(res.body.errors.length, context).toBeGreaterThan(0);
      for (const e of res.body.errors) {
        expect(typeof e.path, context).toBe('string');
        expect(typeof e.message, context).toBe('string');
        expect(e.message.length, context).toBeGreaterThan(0);
      }
    }
  }
}

async function expectHealthy(t: TestSandbox): Promise<void> {
  const health = await t.control('/health');
  expect(health.status).toBe(200);
  expect(health.body.status).toBe('ok');
}

const operations = resources.flatMap((resource) =>
  Object.entries(resource.actions).map(([name, action]) => ({
    label: `${resource.path} ${action.wireName ?? name}`,
    path: resource.path,
    name,
    action,
  })),
);

/** Failure reports stay readable: counterexamples can be megabytes of nesting, so they are cut short. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- one reporter for properties of any arity
function reporter(details: fc.RunDetails<any>): void {
  if (!details.failed) return;
  const example = fc.stringify(details.counterexample);
  const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  throw new Error(
    `Property failed after ${details.numRuns} runs (seed ${details.seed}, path "${details.counterexamplePath}"; replay with FUZZ_SEED=${details.seed})\n` +
      `${cause.slice(0, 1500)}\nCounterexample: ${example.length > 1500 ? `${example.slice(0, 1500)}… (${example.length} chars)` : example}`,
  );
}

const fuzzOptions = {
  seed: FUZZ_SEED,
  numRuns: FUZZ_RUNS,
  endOnFailure: process.env.FUZZ_SHRINK === undefined,
  reporter,
};

describe('fuzzing every API operation', () => {
  let w: World | undefined;
  afterEach(async () => {
    await w?.t.close();
    w = undefined;
  });

  it('has an example body for every operation, so each one is fuzzed from a valid start', () => {
    for (const op of operations) expect(op.action.example, op.label).toBeDefined();
  });

  it.each(operations)(
    '$label answers hostile bodies with a JSON 4xx and keeps state on refusal',
    async ({ path, action }) => {
      w = await world();
      const { t, keys } = w;
      const example = fillExample(action.example, keys);
      await fc.assert(
        fc.asyncProperty(hostileBody, contentType, authArbitrary(action.scope), async (body, type, auth) => {
          const text = render(example, body);
          const headers = await headersFor(t, auth);
          const before = snapshot(t);
          const res = await send(t, path, text, type, headers);
          expectWellFormed(res, text);
          if (res.status >= 400)
            expect(snapshot(t), `state changed by a refused ${path} request: ${text.slice(0, 300)}`).toBe(before);
          expectPrototypesClean();
          await expectHealthy(t);
        }),
        fuzzOptions,
      );
    },
  );

  it.each(operations)(
    '$label lets no "__proto__", "constructor" or "prototype" key reach a prototype, in any position',
    async ({ path, action }) => {
      w = await world();
      const { t, keys } = w;
      const example = fillExample(action.example, keys);
      for (const at of objectPaths(example)) {
        for (const key of PROTO_KEYS) {
          const headers = await headersFor(
            t,
            action.scope === 'public' ? 'none' : action.scope === 'authenticated' ? 'platform' : action.scope,
          );
          const text = JSON.stringify(plant(example, at, key, POLLUTER()));
          const res = await send(t, path, text, 'application/json', headers);
          expectWellFormed(res, text);
          expectPrototypesClean();
        }
      }
      await expectHealthy(t);
    },
  );
});

const endpoints = plainResources.flatMap((resource) =>
  resource.endpoints.map((endpoint) => ({
    label: `${endpoint.method} ${resource.path}`,
    path: resource.path,
    endpoint,
  })),
);

describe('fuzzing the plain endpoints (no envelope)', () => {
  let w: World | undefined;
  afterEach(async () => {
    await w?.t.close();
    w = undefined;
  });

  it.each(endpoints)(
    '$label answers hostile input with a JSON 4xx and keeps state on refusal',
    async ({ path, endpoint }) => {
      w = await world();
      const { t, keys } = w;
      const example = fillExample(endpoint.example ?? {}, keys) as Record<string, unknown>;
      const queryValue = fc.oneof(
        fc.string(),
        fc.constantFrom('', '0', '-1', '1e999', '__proto__', keys.CONTRACT_KEY!, '%00', 'a&b=c'),
      );
      await fc.assert(
        fc.asyncProperty(
          hostileBody,
          contentType,
          fc.dictionary(fc.constantFrom('contractKey', 'clientKey', 'id', 'view', '__proto__', 'x'), queryValue),
          authArbitrary(endpoint.scope === 'client' ? 'client' : 'platform'),
          async (body, type, query, auth) => {
            const headers = await headersFor(t, auth);
            const before = snapshot(t);
            const search = new URLSearchParams(
              endpoint.method === 'GET' ? { ...(example as Record<string, string>), ...query } : query,
            ).toString();
            const text = endpoint.method === 'GET' ? '' : render(example, body);
            const res = await t.request(`${path}?${search}`, {
              method: endpoint.method,
              headers: {
                ...headers,
                ...(type === undefined || endpoint.method === 'GET' ? {} : { 'content-type': type }),
              },
              ...(endpoint.method === 'GET' ? {} : { body: text }),
            });
            expectWellFormed(res, `${search} ${text}`);
            if (res.status >= 400)
              expect(
                snapshot(t),
                `state changed by a refused ${endpoint.method} ${path}: ${search} ${text.slice(0, 300)}`,
              ).toBe(before);
            expectPrototypesClean();
            await expectHealthy(t);
          },
        ),
        fuzzOptions,
      );
    },
  );
});

/** Bodies for the control endpoints this file knows; any other POST route is fuzzed from `{}`. */
const controlExamples: Record<string, unknown> = {
  '/__sandbox/clock/advance': { by: '90s' },
  '/__sandbox/clock/set': { to: '2026-03-02T09:00:00.000Z' },
  '/__sandbox/tokens/expire': { token: '<CLIENT_TOKEN>' },
  '/__sandbox/platforms': { apiKey: 'fuzzPlatform', secret: 'fuzzSecret', name: 'Fuzz' },
};

/** Path parameters of control routes, filled with a key of the matching kind. */
function fillParams(path: string, keys: Record<string, string>): string {
  return path.replace(/:(\w+)(\{[^}]*\})?/g, (_m, name: string) => {
    const n = name.toLowerCase();
    if (n.includes('recipient')) return keys.RECIPIENT_KEY!;
    if (n.includes('contract')) return keys.CONTRACT_KEY!;
    if (n.includes('webhook')) return keys.WEBHOOK_KEY!;
    if (n.includes('client')) return keys.CLIENT_KEY!;
    if (n === 'verb' || n === 'action') return 'view';
    return '1';
  });
}

describe('fuzzing the control API', async () => {
  const probe = await testSandbox(FROZEN);
  const routes = [
    ...new Set(
      probe.sandbox.app.routes
        .filter((r) => r.method === 'POST' && r.path.startsWith('/__sandbox/'))
        .map((r) => r.path),
    ),
  ];
  afterAll(() => probe.close());
  let w: World | undefined;
  afterEach(async () => {
    await w?.t.close();
    w = undefined;
  });

  it('finds the control endpoints the issue names', () => {
    for (const path of Object.keys(controlExamples)) expect(routes).toContain(path);
  });

  it.each(routes)('POST %s answers hostile bodies with JSON and keeps state on refusal', async (route) => {
    w = await world();
    const { t, keys } = w;
    const path = fillParams(route, keys);
    const example = fillExample(controlExamples[route] ?? {}, keys);
    await fc.assert(
      fc.asyncProperty(hostileBody, contentType, async (body, type) => {
        const text = render(example, body);
        const before = snapshot(t);
        const res = await send(t, path, text, type, {});
        // The dashboard's forms (pages for people) go back to the dashboard when they act; refusals are JSON.
        if (route.startsWith('/__sandbox/ui/') && res.status === 303)
          expect(res.headers.get('location')).toMatch(/^\/__sandbox\/ui(\?|$)/);
        else expectWellFormed(res, text);
        if (res.status >= 400)
          expect(snapshot(t), `state changed by a refused ${path} request: ${text.slice(0, 300)}`).toBe(before);
        expectPrototypesClean();
        await expectHealthy(t);
      }),
      fuzzOptions,
    );
  });

  const getRoutes = [
    ...new Set(
      probe.sandbox.app.routes.filter((r) => r.method === 'GET' && r.path.startsWith('/__sandbox/')).map((r) => r.path),
    ),
  ];
  const queryValue = fc.oneof(
    fc.constantFrom(
      '',
      'pending',
      'contract.signed',
      '__proto__',
      '<script>alert(1)</script>',
      '\u0000',
      '\ud800',
      '😀',
      'x'.repeat(3000),
      '[]',
      '{}',
      '-1',
      '1e309',
    ),
    fc.string({ unit: 'binary', maxLength: 30 }),
  );
  const queryKey = fc.oneof(
    fc.constantFrom(
      'webhookKey',
      'event',
      'status',
      'contractKey',
      'clientKey',
      'kind',
      'limit',
      'since',
      '__proto__',
      'constructor',
      'prototype',
    ),
    fc.string({ maxLength: 10 }),
  );

  /** Percent-encodes bytes, so lone surrogates go out as the replacement character rather than throwing. */
  const percent = (text: string) =>
    [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
  /** Query text no encoder writes: broken escapes, invalid UTF-8, repeated and empty keys. */
  const rawQuery = fc.constantFrom(
    '',
    '%',
    '%zz',
    'status=%ED%A0%80',
    'event=%C0%AF',
    'status=pending&status=failed',
    '=',
    '&&',
    'a[b]=c',
    'webhookKey',
  );

  it.each(getRoutes)('GET %s answers hostile query strings and path parameters with JSON', async (route) => {
    w = await world();
    const { t, keys } = w;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(queryKey, queryValue), { maxLength: 4 }),
        fc.option(queryValue),
        rawQuery,
        async (pairs, param, extra) => {
          const path =
            param === null ? fillParams(route, keys) : route.replace(/:\w+(\{[^}]*\})?/g, () => percent(param) || 'x');
          const query = [...pairs.map(([k, v]) => `${percent(k)}=${percent(v)}`), extra].join('&');
          const before = snapshot(t);
          const res = await t.request(`${path}?${query}`);
          if (
            res.status === 301 ||
            route.startsWith('/__sandbox/ui/assets/') ||
            res.headers.get('content-type')?.startsWith('text/html')
          ) {
            // Pages for people (the recipient's signing page) answer HTML, and never echo markup they were sent.
            expect(res.status, `GET ${path}?${query}`).toBeLessThan(500);
            expect(String(res.body)).not.toContain('<script>');
          } else {
            expectWellFormed(res, `GET ${path}?${query}`);
          }
          expect(snapshot(t), 'a GET changes nothing').toBe(before);
          expectPrototypesClean();
        },
      ),
      fuzzOptions,
    );
  });
});

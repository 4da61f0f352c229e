/**
 * Property-based fuzzing of the control API (split from fuzz.test.ts): every control route, fed hostile
 * bodies, must answer well-formed JSON without a 5xx and leave the sandbox healthy. Fixed seed, bounded runs.
 */

import fc from 'fast-check';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { FUZZ_RUNS, contentType, fillExample, hostileBody, render } from '../support/fuzz-kit.js';
import {
  type World,
  expectHealthy,
  expectPrototypesClean,
  expectWellFormed,
  fuzzOptions,
  send,
  snapshot,
  world,
} from '../support/fuzz-world.js';
import { FROZEN, testSandbox } from '../support/helpers.js';

// A long hunt (FUZZ_RUNS=2000) takes minutes per operation; the default run takes a fraction of a second.
vi.setConfig({ testTimeout: 20_000 + FUZZ_RUNS * 500 });

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

/**
 * Property-based fuzzing of every operation: each action's example body, mutated into
 * something hostile, must get a JSON answer with a message and no 5xx; the process must stay healthy; a
 * refused request must leave the store (and clock) exactly as it was; nothing may reach Object.prototype.
 * The operations come from the ResourceSpec tables and the control API's own route list, so a new action or
 * control endpoint is fuzzed without touching this file. Fixed seed, bounded runs: FUZZ_RUNS=2000 hunts longer.
 */

import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { plainResources } from '../../src/resources/index.js';
import {
  FUZZ_RUNS,
  PROTO_KEYS,
  POLLUTER,
  contentType,
  fillExample,
  hostileBody,
  objectPaths,
  plant,
  render,
} from '../support/fuzz-kit.js';
import {
  type World,
  authArbitrary,
  expectHealthy,
  expectPrototypesClean,
  expectWellFormed,
  fuzzOptions,
  headersFor,
  operations,
  send,
  snapshot,
  world,
} from '../support/fuzz-world.js';
import { API_ACTION_COUNT, API_PATHS } from '../support/helpers.js';

// A long hunt (FUZZ_RUNS=2000) takes minutes per operation; the default run takes a fraction of a second.
vi.setConfig({ testTimeout: 20_000 + FUZZ_RUNS * 500 });

describe('fuzzing every API operation', () => {
  let w: World | undefined;
  afterEach(async () => {
    await w?.t.close();
    w = undefined;
  });

  it('has an example body for every operation, so each one is fuzzed from a valid start', () => {
    expect(new Set(operations.map((op) => op.path)), 'every /api path').toEqual(new Set(API_PATHS));
    expect(operations, `the ${API_ACTION_COUNT} operations of the API`).toHaveLength(API_ACTION_COUNT);
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

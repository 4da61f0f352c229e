import { afterEach, describe, expect, it } from 'vitest';
import type { Auth } from '../support/helpers.js';
import { type Play, play } from './play.js';

let p: Play;
afterEach(() => p?.close());

const create = (p: Play, auth: Auth) =>
  p.t.post('/api/contract', { data: { action: 'create', contract: { name: 'Flaky', value: '<p/>' } } }, auth);

describe('bundled scenario: flaky-api', () => {
  it('answers the first two contract creates 503 with Retry-After, then lets them through', async () => {
    p = await play('flaky-api');
    const auth = await p.t.demoAuth();
    const answers = [await create(p, auth), await create(p, auth), await create(p, auth)];
    expect(answers.map((a) => a.status)).toEqual([503, 503, 201]);
    expect(answers[0]!.body).toEqual({ code: 503, message: 'Service unavailable; retry after 2 seconds' });
    expect(answers[0]!.headers.get('retry-after')).toBe('2');
    expect(answers[0]!.headers.get('x-sandbox-fault')).toBe('flaky-api:create-unavailable');
    // Other actions on the same path are not hit.
    expect((await p.t.post('/api/contract', { data: { action: 'list' } }, auth)).status).toBe(200);
  });

  it('throttles about a third of recipient calls with 429 once a create went through, the same calls on every run', async () => {
    const run = async () => {
      const q = await play('flaky-api');
      const auth = await q.t.demoAuth();
      // Before any contract create went through, recipient calls are not throttled.
      expect((await q.t.post('/api/recipient', { data: { action: 'list', contractKey: 'nope' } }, auth)).status).toBe(
        404,
      );
      const creates = [(await create(q, auth)).status, (await create(q, auth)).status, (await create(q, auth)).status];
      expect(creates).toEqual([503, 503, 201]);
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++) {
        const res = await q.t.post('/api/recipient', { data: { action: 'list', contractKey: 'nope' } }, auth);
        statuses.push(res.status);
        if (res.status === 429) expect(res.headers.get('retry-after')).toBe('1');
      }
      await q.close();
      return statuses;
    };
    const first = await run();
    const second = await run();
    expect(second).toEqual(first);
    const throttled = first.filter((s) => s === 429).length;
    expect(throttled).toBeGreaterThan(3);
    expect(throttled).toBeLessThan(20);
    expect(first.filter((s) => s !== 429).every((s) => s === 404)).toBe(true);
  });

  it('counts what each fault saw and hit, and unloading removes its faults', async () => {
    p = await play('flaky-api');
    const auth = await p.t.demoAuth();
    await create(p, auth);
    const faults = (await p.t.control('/faults')).body.faults;
    expect(faults.map((f: any) => [f.id, f.source, f.hits])).toEqual([
      ['flaky-api:create-unavailable', 'scenario:flaky-api', 1],
      // The demo token requests went through the latency fault.
      ['flaky-api:slow-tokens', 'scenario:flaky-api', 2],
    ]);
    const expectations = async () => (await p.t.control('/scenarios/flaky-api')).body.expectations;
    expect(await expectations()).toMatchObject([{ id: 'create-retried-until-it-went-through', status: 'pending' }]);
    expect((await create(p, auth)).status).toBe(503);
    expect((await create(p, auth)).status).toBe(201);
    // The create that went through starts the throttling, and meets the expectation.
    expect((await p.t.control('/faults')).body.faults.map((f: any) => [f.id, f.hits])).toEqual([
      ['flaky-api:create-unavailable', 2],
      ['flaky-api:slow-tokens', 2],
      ['flaky-api:recipient-throttled', 0],
    ]);
    expect(await expectations()).toMatchObject([{ id: 'create-retried-until-it-went-through', status: 'met' }]);
    expect((await p.t.control('/scenarios/flaky-api', undefined, 'DELETE')).status).toBe(200);
    expect((await p.t.control('/faults')).body.faults).toEqual([]);
    expect((await create(p, await p.t.demoAuth())).status).toBe(201);
  });
});

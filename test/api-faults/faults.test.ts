import { afterEach, describe, expect, it } from 'vitest';
import { monotonicNow } from '../../src/core/wall-time.js';
import { type Auth, FROZEN, type TestSandbox, testSandbox } from '../support/helpers.js';

let t: TestSandbox;
afterEach(() => t?.close());

const listContracts = async (auth?: Auth) =>
  t.post('/api/contract', { data: { action: 'list' } }, auth ?? (await t.demoAuth()));

describe('/__sandbox/faults', () => {
  it('makes matching requests fail with the status, in the error format, a set number of times', async () => {
    t = await testSandbox(FROZEN);
    const set = await t.control('/faults', { match: { path: '/api/contract' }, status: 500, times: 1 });
    expect(set.status).toBe(201);
    expect(set.body.ids).toEqual(['fault-1']);
    const hit = await listContracts();
    expect(hit.status).toBe(500);
    expect(hit.body).toEqual({ code: 500, message: 'Internal server error' });
    expect(hit.headers.get('x-sandbox-fault')).toBe('fault-1');
    expect(hit.headers.get('retry-after')).toBeNull();
    expect((await listContracts()).status).toBe(200);
    expect((await t.control('/faults')).body.faults[0]).toMatchObject({
      id: 'fault-1',
      source: 'control',
      hits: 1,
      exhausted: true,
    });
  });

  it('sends 429 with Retry-After and a message of its own', async () => {
    t = await testSandbox(FROZEN);
    await t.control('/faults', {
      id: 'throttle',
      match: { path: '/api/*', action: 'list' },
      status: 429,
      retryAfter: 30,
      message: 'Rate limit exceeded',
    });
    const res = await listContracts();
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ code: 429, message: 'Rate limit exceeded' });
    expect(res.headers.get('retry-after')).toBe('30');
  });

  it('covers every /api path, unknown ones too, and the journal records the faulted answers', async () => {
    t = await testSandbox(FROZEN);
    const auth = await t.demoAuth();
    await t.control('/faults', { match: { path: '/api/*' }, status: 503 });
    const unknown = await t.post('/api/nothing-here', { data: {} }, auth);
    expect(unknown.status).toBe(503);
    expect(unknown.headers.get('x-sandbox-fault')).toBe('fault-1');
    expect((await listContracts(auth)).status).toBe(503);
    const journal = (await t.control('/requests?status=503')).body.requests as { path: string; status: number }[];
    expect(journal.map((e) => [e.path, e.status])).toEqual([
      ['/api/nothing-here', 503],
      ['/api/contract', 503],
    ]);
  });

  it('lets the first requests through with after, and matches on the client key', async () => {
    t = await testSandbox(FROZEN);
    await t.control('/faults', {
      faults: [{ match: { client: 'demoClient', action: 'list' }, status: 503, after: 2 }],
    });
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push(
        (
          await t.post(
            '/api/contract',
            { data: { action: 'list', clientKey: 'demoClient' } },
            { apiKey: 'sandboxApiKey' },
          )
        ).status,
      );
    expect(statuses).toEqual([200, 200, 503, 503]);
    expect(
      (
        await t.post(
          '/api/contract',
          { data: { action: 'list', clientKey: 'otherClient' } },
          { apiKey: 'sandboxApiKey' },
        )
      ).status,
    ).not.toBe(503);
  });

  it('ends a fault after its "for" duration of sandbox time', async () => {
    t = await testSandbox(FROZEN);
    await t.control('/faults', { match: { path: '/api/contract' }, status: 502, for: '10m' });
    expect((await listContracts()).status).toBe(502);
    await t.control('/clock/advance', { by: '10m' });
    expect((await listContracts()).status).toBe(200);
    expect((await t.control('/faults')).body.faults).toEqual([]);
  });

  it('keeps a timed fault, and its end, across a reset', async () => {
    t = await testSandbox(FROZEN);
    await t.control('/faults', { match: { path: '/api/contract' }, status: 502, for: '10m' });
    await t.control('/reset', {});
    expect((await listContracts()).status).toBe(502);
    await t.control('/clock/advance', { by: '10m' });
    expect((await listContracts()).status).toBe(200);
  });

  it('delays the answer by the latency in real time, then answers normally', async () => {
    t = await testSandbox(FROZEN);
    const auth = await t.demoAuth();
    await t.control('/faults', { match: { path: '/api/contract' }, latency: '40ms' });
    const started = monotonicNow();
    const res = await t.post('/api/contract', { data: { action: 'list' } }, auth);
    expect(res.status).toBe(200);
    expect(monotonicNow() - started).toBeGreaterThanOrEqual(35);
  });

  it('never touches the control API', async () => {
    t = await testSandbox(FROZEN);
    const auth = await t.demoAuth();
    await t.control('/faults', { status: 503 });
    expect((await t.control('/health')).status).toBe(200);
    expect((await listContracts(auth)).status).toBe(503);
  });

  it('removes one fault by id, or all of them', async () => {
    t = await testSandbox(FROZEN);
    await t.control('/faults', {
      faults: [
        { id: 'a', status: 500 },
        { id: 'b', status: 503 },
      ],
    });
    expect((await t.control('/faults/a', undefined, 'DELETE')).body).toEqual({ removed: 1 });
    expect((await t.control('/faults/a', undefined, 'DELETE')).status).toBe(404);
    expect((await t.control('/faults', undefined, 'DELETE')).body).toEqual({ removed: 1 });
    expect((await listContracts()).status).toBe(200);
  });

  it.each([
    [
      'no status and no latency',
      { match: { path: '/api/*' } },
      '(body)',
      'expected status (an HTTP status to answer with), latency, connection or dribble',
    ],
    [
      'a connection with a status',
      { connection: 'reset', status: 503 },
      'status',
      'status cannot go with connection: nothing is answered',
    ],
    [
      'a connection with a dribble',
      { connection: 'empty', dribble: '1s' },
      'dribble',
      'dribble cannot go with connection: nothing is answered',
    ],
    [
      'an unknown connection fault',
      { connection: 'drop' },
      'connection',
      'Invalid option: expected one of "reset"|"empty"|"malformed-chunk"|"garbage"',
    ],
    [
      'a dribble with a status',
      { status: 500, dribble: '1s' },
      'dribble',
      'dribble cannot go with status: it slows the real answer (use latency to delay a refusal)',
    ],
    ['a dribble over 10 minutes', { dribble: '11m' }, 'dribble', 'Too long: at most 10m of real time'],
    ['an unknown key', { status: 500, tiems: 2 }, '(body)', 'Unrecognized key: "tiems"'],
    ['a probability above 1', { status: 500, probability: 2 }, 'probability', 'Too big: expected number to be <=1'],
  ])('refuses a fault with %s', async (_what, body, path, message) => {
    t = await testSandbox(FROZEN);
    const res = await t.control('/faults', body);
    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual({ path, message });
  });

  it('refuses a second fault with the same id', async () => {
    t = await testSandbox(FROZEN);
    await t.control('/faults', { id: 'x', status: 500 });
    const again = await t.control('/faults', { id: 'x', status: 503 });
    expect(again.status).toBe(409);
  });

  it("is the control operation the library's sandbox.faults calls", async () => {
    t = await testSandbox(FROZEN);
    expect(t.sandbox.control.faults.add({ match: { path: '/api/contract' }, status: 503 })).toEqual(['fault-1']);
    expect((await listContracts()).status).toBe(503);
    expect(t.sandbox.control.faults.list()).toHaveLength(1);
    expect(t.sandbox.control.faults.clear()).toBe(1);
    expect((await listContracts()).status).toBe(200);
  });
});

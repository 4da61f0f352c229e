/**
 * Quotas like a test mode (docs/readiness.md): a token bucket per API key on the sandbox clock, 429 in the service's
 * error format with Retry-After past it, X-RateLimit-* on every answer while a limit applies; per tenant, in a
 * scenario, off by default. The clock is frozen and moved by the test, so nothing depends on the machine's speed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseRateLimit } from '../../src/core/rate-limit.js';
import { DEMO, FROZEN, type TestSandbox, testSandbox } from '../support/helpers.js';

let t: TestSandbox;
afterEach(() => t?.close());

const list = (auth = { apiKey: DEMO.apiKey }) =>
  t.post('/api/contract', { data: { action: 'list', clientKey: DEMO.clientKey } }, auth);

describe('rate limits', () => {
  it('reads rates per second, minute and hour, and refuses others', () => {
    expect(parseRateLimit('10/min')).toEqual({ limit: 10, periodMs: 60_000, text: '10/min' });
    expect(parseRateLimit('2/s')?.periodMs).toBe(1000);
    expect(parseRateLimit(' 500 / hour ')?.text).toBe('500/h');
    for (const bad of ['10', '0/min', 'ten/min', '10/day', '10/min/s']) expect(parseRateLimit(bad)).toBeUndefined();
  });

  it('are off by default: no headers, no 429', async () => {
    t = await testSandbox(FROZEN);
    for (let i = 0; i < 15; i++) expect((await list()).status).toBe(200);
    expect((await list()).headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('answer 429 with Retry-After past the quota, and refill on the sandbox clock', async () => {
    t = await testSandbox({ ...FROZEN, rateLimit: '3/min' });
    const answers = [await list(), await list(), await list()];
    expect(answers.map((a) => a.headers.get('x-ratelimit-remaining'))).toEqual(['2', '1', '0']);
    expect(answers[0]!.headers.get('x-ratelimit-limit')).toBe('3');
    // Full again one minute of sandbox time after the first request was taken.
    expect(answers[2]!.headers.get('x-ratelimit-reset')).toBe(String(Date.parse(FROZEN.start) / 1000 + 60));
    const refused = await list();
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      code: 429,
      message: "Too many requests: the sandbox's rate limit is 3/min per API key; retry after 20 seconds",
    });
    expect(refused.headers.get('retry-after')).toBe('20');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    // A frozen clock refills only when moved.
    expect((await list()).status).toBe(429);
    await t.control('/clock/advance', { by: '20s' });
    expect((await list()).status).toBe(200);
    expect((await list()).status).toBe(429);
  });

  it('count per API key: a token counts against its platform, another tenant has its own bucket', async () => {
    t = await testSandbox({ ...FROZEN, rateLimit: '2/min' });
    const token = await t.platformToken(); // the token create is one request of the demo platform's
    expect((await list({ bearer: token } as never)).status).toBe(200);
    expect((await list()).status).toBe(429);
    const other = (await t.control('/platforms', { name: 'other' })).body;
    expect((await list({ apiKey: other.apiKey })).status).not.toBe(429);
  });

  it('per tenant: POST /__sandbox/platforms {"rateLimit"}, and the scoped control API', async () => {
    t = await testSandbox(FROZEN);
    const created = await t.control('/platforms', { name: 'limited', rateLimit: '1/h' });
    expect(created.body.rateLimit).toBe('1/h');
    const key = created.body.apiKey;
    const tenantList = () => t.post('/api/client', { data: { action: 'list' } }, { apiKey: key });
    expect((await tenantList()).status).toBe(200);
    const refused = await tenantList();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('3600');
    expect((await list()).headers.get('x-ratelimit-limit')).toBeNull();
    expect((await t.control(`/platforms/${key}/rate-limit`)).body).toEqual({
      rateLimit: '1/h',
      source: 'control',
      scope: 'tenant',
    });
    expect((await t.control(`/platforms/${key}/rate-limit`, { rateLimit: null }, 'PUT')).body.rateLimit).toBeNull();
    expect((await tenantList()).status).toBe(200);
  });

  it('in a scenario: on while it is loaded, gone when it unloads', async () => {
    t = await testSandbox(FROZEN);
    const yaml = 'name: quota\nrateLimit: 1/min\n';
    expect((await t.control('/scenarios', { yaml })).status).toBe(201);
    expect((await t.control('/rate-limit')).body).toEqual({
      rateLimit: '1/min',
      source: 'scenario:quota',
      scope: 'sandbox',
    });
    expect((await list()).status).toBe(200);
    expect((await list()).status).toBe(429);
    await t.control('/scenarios/quota', undefined, 'DELETE');
    expect((await t.control('/rate-limit')).body).toEqual({ rateLimit: null });
    expect((await list()).status).toBe(200);
  });

  it('refuses a rate it cannot read', async () => {
    t = await testSandbox(FROZEN);
    const answer = await t.control('/rate-limit', { rateLimit: '10 per minute' }, 'PUT');
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(/expected a rate like "10\/min"/);
    await expect(testSandbox({ rateLimit: 'fast' })).rejects.toThrow(/rate-limit: expected a rate like/);
  });
});

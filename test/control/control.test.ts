import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/core/duration.js';
import { DEMO, FROZEN, testSandbox, sandboxEachTest } from '../support/helpers.js';

const t = sandboxEachTest();

describe('health', () => {
  it('answers ok with the sandbox time and counts', async () => {
    const res = await t.control('/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'ok',
      now: '2026-03-01T09:00:00.000Z',
      clock: 'frozen',
      counts: { platforms: 1, clients: 1 },
    });
  });
});

describe('clock', () => {
  it.each([
    ['90s', 90_000],
    ['30m', 1_800_000],
    ['2h', 7_200_000],
    ['1d', 86_400_000],
    ['1h30m', 5_400_000],
    [45, 45_000],
    ['45', 45_000],
  ])('advances by %j', async (by, ms) => {
    const res = await t.control('/clock/advance', { by });
    expect(res.status).toBe(200);
    expect(Date.parse(res.body.now) - Date.parse(FROZEN.start)).toBe(ms);
  });

  it.each([['soon'], ['-5s'], [''], [-1]])('refuses the duration %j with 400', async (by) => {
    const res = await t.control('/clock/advance', { by });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(400);
  });

  it('sets, unfreezes and freezes', async () => {
    expect((await t.control('/clock/set', { to: '2027-01-01T00:00:00Z' })).body.now).toBe('2027-01-01T00:00:00.000Z');
    expect((await t.control('/clock/unfreeze', {})).body.mode).toBe('real');
    const frozen = await t.control('/clock/freeze', {});
    expect(frozen.body.mode).toBe('frozen');
    expect(Date.parse(frozen.body.now)).toBeGreaterThanOrEqual(Date.parse('2027-01-01T00:00:00Z'));
    expect((await t.control('/clock')).body.now).toBe(frozen.body.now);
  });

  it('refuses a time it cannot read', async () => {
    expect((await t.control('/clock/set', { to: 'next tuesday' })).status).toBe(400);
  });

  it('runs due timers in time order, at their due time, and only those', async () => {
    const clock = t.sandbox.services.clocks.sandbox;
    const seen: string[] = [];
    clock.after(3000, () => seen.push(`c@${clock.now() - Date.parse(FROZEN.start)}`));
    clock.after(1000, () => seen.push(`a@${clock.now() - Date.parse(FROZEN.start)}`));
    clock.after(2000, () => seen.push(`b@${clock.now() - Date.parse(FROZEN.start)}`));
    clock.after(9000, () => seen.push('late'));
    await t.control('/clock/advance', { by: '5s' });
    expect(seen).toEqual(['a@1000', 'b@2000', 'c@3000']);
    expect(clock.pendingCount()).toBe(1);
  });

  it('waits for the async work a timer starts, and runs timers that work schedules inside the window', async () => {
    const clock = t.sandbox.services.clocks.sandbox;
    const seen: string[] = [];
    clock.after(1000, async () => {
      await new Promise((r) => setTimeout(r, 20));
      seen.push('slow done');
      clock.after(1000, () => seen.push('follow-up'));
    });
    await clock.advance(2500);
    expect(seen).toEqual(['slow done', 'follow-up']);
  });

  it('parses durations', () => {
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('1w')).toBe(604_800_000);
    expect(parseDuration('2x')).toBeUndefined();
  });
});

describe('reset', () => {
  it('goes back to the seeded state', async () => {
    const auth = await t.demoAuth();
    await t.post('/api/contract', { data: { action: 'create', contract: { name: 'x', value: 'y' } } }, auth);
    expect(t.sandbox.services.store.contracts.size).toBe(1);
    const res = await t.control('/reset', {});
    expect(res.status).toBe(200);
    expect(t.sandbox.services.store.contracts.size).toBe(0);
    expect(t.sandbox.services.store.clients.get(DEMO.clientKey)).toBeDefined();
    // Tokens are state too: the old one is gone.
    expect((await t.post('/api/contract', { data: { action: 'list' } }, auth)).status).toBe(401);
  });

  it('gives the same keys again with a seed', async () => {
    const seeded = await testSandbox({ ...FROZEN, seed: 7 });
    try {
      const first = await seeded.platformToken();
      await seeded.control('/reset', {});
      expect(await seeded.platformToken()).toBe(first);
    } finally {
      await seeded.close();
    }
  });
});

describe('platforms', () => {
  it('creates an isolated platform with its own credentials', async () => {
    const res = await t.control('/platforms', {});
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      platformId: expect.any(String),
      apiKey: expect.any(String),
      secret: expect.any(String),
    });
    expect(
      (await t.post('/api/token', { data: { action: 'create', apiKey: res.body.apiKey, secret: res.body.secret } }))
        .status,
    ).toBe(201);
  });

  it('takes chosen credentials and refuses a duplicate apiKey', async () => {
    expect((await t.control('/platforms', { apiKey: 'team-a', secret: 's' })).status).toBe(201);
    expect((await t.control('/platforms', { apiKey: 'team-a' })).status).toBe(409);
  });
});

describe('unknown paths', () => {
  it.each(['/nope', '/api/nope', '/__sandbox/nope'])('answer 404 JSON for %s', async (path) => {
    const res = await t.request(path);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 404, message: expect.stringContaining(path) });
  });
});

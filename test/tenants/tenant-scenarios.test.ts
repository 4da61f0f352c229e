/**
 * Scenarios loaded for a tenant (docs/library.md, "Parallel test files on one sandbox"): they play as the same
 * scenario loaded for the sandbox does, reactions to their own steps and expectations after a step included; ids
 * are the tenant's own (faults, receiver faults, scenarios and the keys their data fixes), so every bundled
 * scenario loads into any number of tenants.
 */
import { describe, expect, it } from 'vitest';
import { sandboxEachTest } from '../support/helpers.js';

const t = sandboxEachTest();

async function tenant(name: string): Promise<{ apiKey: string; secret: string; path: string }> {
  const made = await t.control('/platforms', { name, clock: 'frozen', start: '2026-03-01T09:00:00Z' });
  expect(made.status).toBe(201);
  return { ...made.body, path: `/platforms/${made.body.apiKey}` };
}

async function loadFor(prefix: string, yaml: string) {
  return t.request(`/__sandbox${prefix}/scenarios`, {
    method: 'POST',
    headers: { 'content-type': 'application/yaml' },
    body: yaml,
  });
}

describe("a tenant's scenario", () => {
  it('reacts to its own steps, and judges expectations counted from a step', async () => {
    const a = await tenant('steps');
    const yaml = [
      'name: steps',
      'timeline:',
      '  - { id: kick, at: 1h, expireTokens: all }',
      '  - { id: follow, when: { step: kick }, revokeTokens: all }',
      'expect:',
      '  - { id: new-token, request: { path: /api/client, status: 2xx }, after: { step: kick }, within: 30m }',
    ].join('\n');
    expect((await loadFor(a.path, yaml)).status).toBe(201);
    expect((await t.control(`${a.path}/clock/advance`, { by: '1h' })).status).toBe(200);
    const token = await t.post('/api/token', { data: { action: 'create', apiKey: a.apiKey, secret: a.secret } });
    expect(token.status).toBe(201);
    const clients = await t.post('/api/client', { data: { action: 'list' } }, { bearer: token.body.access_token });
    expect(clients.status, JSON.stringify(clients.body)).toBe(200);
    const summary = (await t.control(`${a.path}/scenarios/steps`)).body;
    const done = summary.log.filter((l: any) => l.outcome === 'done').map((l: any) => l.cause);
    expect(done).toEqual(['scenario:steps:kick', 'scenario:steps:follow']);
    expect(summary.expectations).toEqual([expect.objectContaining({ id: 'new-token', status: 'met' })]);
  });
});

describe("a tenant's own ids", () => {
  it('every bundled scenario loads into three tenants, its data made inside each, the sandbox left alone', async () => {
    const bundled = (await t.control('/scenarios')).body.bundled.map((b: any) => b.name) as string[];
    expect(bundled.length).toBeGreaterThan(10);
    const before = t.sandbox.services.store.contracts.where('client', 'demoClient').length;
    const tenants = [await tenant('a'), await tenant('b'), await tenant('c')];
    const refused: string[] = [];
    for (const name of bundled)
      for (const x of tenants) {
        const loaded = await t.control(`${x.path}/scenarios`, { name });
        if (loaded.status !== 201) refused.push(`${name} in ${x.apiKey}: ${loaded.status} ${loaded.body.message}`);
      }
    expect(refused).toEqual([]);
    const { store } = t.sandbox.services;
    for (const x of tenants) {
      const platformId = store.platforms.where('apiKey', x.apiKey)[0]!.platformId;
      const names = store.contracts.where('platform', platformId).map((c) => c.name);
      expect(names).toContain('Token expiry agreement');
      for (const c of store.contracts.where('platform', platformId))
        expect(store.clients.get(c.clientKey)!.platformId).toBe(platformId);
    }
    expect(store.contracts.where('client', 'demoClient')).toHaveLength(before);
  });

  it('every bundled scenario loaded by eight tenants at once: each load 201, each tenant its own data', async () => {
    const bundled = (await t.control('/scenarios')).body.bundled.map((b: any) => b.name) as string[];
    const tenants = await Promise.all(Array.from({ length: 8 }, (_, i) => tenant(`at-once-${i}`)));
    const loads = await Promise.all(
      bundled.flatMap((name) =>
        tenants.map(async (x) => ({ name, x, answer: await t.control(`${x.path}/scenarios`, { name }) })),
      ),
    );
    expect(
      loads.filter((l) => l.answer.status !== 201).map((l) => `${l.name} in ${l.x.apiKey}: ${l.answer.status}`),
    ).toEqual([]);
    const { store } = t.sandbox.services;
    const owners = new Map<string, string>();
    for (const x of tenants) {
      const platformId = store.platforms.where('apiKey', x.apiKey)[0]!.platformId;
      expect((await t.control(`${x.path}/scenarios`)).body.active).toHaveLength(bundled.length);
      for (const c of store.contracts.where('platform', platformId)) {
        expect(store.clients.get(c.clientKey)!.platformId).toBe(platformId);
        owners.set(c.contractKey, platformId);
      }
    }
    expect(new Set(owners.values()).size).toBe(tenants.length);
  });

  it("a step naming the data's client acts on the tenant's client, never the sandbox's", async () => {
    const a = await tenant('revoker');
    const loaded = await t.control(`${a.path}/scenarios`, { name: 'token-expiry' });
    expect(loaded.status).toBe(201);
    expect(loaded.body.notes.join(' ')).toMatch(/clientKey demoClient is \w+ in this tenant/);
    const sandboxToken = await t.clientToken();
    expect((await t.control(`${a.path}/clock/advance`, { by: '1h' })).status).toBe(200);
    const log = (await t.control(`${a.path}/scenarios/token-expiry`)).body.log as any[];
    expect(log.filter((l) => l.cause === 'scenario:token-expiry:client-tokens-revoked').map((l) => l.outcome)).toEqual([
      'scheduled',
      'done',
    ]);
    const read = await t.post('/api/client', { data: { action: 'read' } }, { bearer: sandboxToken });
    expect(read.status, JSON.stringify(read.body)).not.toBe(401);
  });

  it('two tenants set faults and receiver faults of the same ids; each sees, hits and removes its own', async () => {
    const [a, b] = [await tenant('fa'), await tenant('fb')];
    for (const x of [a, b]) {
      expect(
        (await t.control(`${x.path}/faults`, { id: 'slow', match: { path: '/api/*' }, latency: '1ms' })).status,
      ).toBe(201);
      expect((await t.control(`${x.path}/faults`, { match: { path: '/api/none' }, status: 500 })).body.ids).toEqual([
        'fault-1',
      ]);
      expect((await t.control(`${x.path}/webhook-faults`, { id: 'dup', kind: 'duplicate' })).status).toBe(201);
      expect((await t.control(`${x.path}/webhook-faults`, { kind: 'bad-signature' })).body.ids).toEqual(['rf_1']);
    }
    expect((await t.control(`${a.path}/faults/slow`, undefined, 'DELETE')).status).toBe(200);
    expect((await t.control(`${a.path}/faults`)).body.faults.map((f: any) => f.id)).toEqual(['fault-1']);
    expect((await t.control(`${b.path}/faults`)).body.faults.map((f: any) => f.id)).toEqual(['slow', 'fault-1']);
    expect((await t.control(`${b.path}/webhook-faults`)).body.faults.map((f: any) => f.id)).toEqual(['dup', 'rf_1']);
  });
});

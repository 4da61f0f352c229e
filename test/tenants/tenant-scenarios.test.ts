/**
 * Scenarios loaded for a tenant (docs/library.md, "Parallel test files on one sandbox"): they play as the same
 * scenario loaded for the sandbox does, reactions to their own steps and expectations after a step included.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FROZEN, type TestSandbox, testSandbox } from '../support/helpers.js';

let t: TestSandbox;
beforeEach(async () => {
  t = await testSandbox(FROZEN);
});
afterEach(() => t.close());

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

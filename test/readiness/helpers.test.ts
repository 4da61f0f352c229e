/**
 * The test helpers of docs/library.md: settle() (library, control client, control API, per tenant), the report from
 * the library, the client and HTTP in its three formats, the assertions, and the vitest fixture that gives each test
 * its own tenant (used here as a user's suite uses it).
 */
import { AssertionError } from 'node:assert';
import { test as base, afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type RunningSandbox,
  type ScenarioSummary,
  assertExpectationsMet,
  assertReady,
  createControlClient,
  startSandbox,
  tenantFixture,
} from '../../src/index.js';
import { createWebhookReceiver } from '../../src/testing/webhook-receiver.js';
import { ALL_FLAGS } from '../support/webhook-support.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ clock: 'frozen', start: '2026-03-01T09:00:00Z' });
});
afterAll(() => sandbox?.close());

async function api(apiKey: string, path: string, data: Record<string, unknown>) {
  const res = await fetch(`${sandbox.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-key': apiKey },
    body: JSON.stringify({ data }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** A tenant with a client and a webhook to a receiver: the world a delivery needs. */
async function tenantWithWebhook() {
  const platform = await sandbox.createPlatform({ clock: 'frozen' });
  const receiver = await createWebhookReceiver();
  const client = await api(platform.apiKey, '/api/client', {
    action: 'create',
    client: { fullname: 'Client', email: 'client@example.com' },
  });
  const clientKey = client.body.client.clientKey as string;
  const hook = await api(platform.apiKey, '/api/webhook', {
    action: 'create',
    clientKey,
    webhooks: [{ url: receiver.url, ...ALL_FLAGS }],
  });
  receiver.useSecret(hook.body.webhooks[0].secret);
  return { platform, receiver, clientKey, tenant: sandbox.tenant(platform.apiKey) };
}

describe('settle()', () => {
  it('waits for the deliveries in flight, in process and over HTTP, for a tenant or all', async () => {
    const { platform, receiver, clientKey, tenant } = await tenantWithWebhook();
    // Each first attempt waits 300 ms of real time before it is sent: only waiting for it sees it.
    await tenant.webhooks.faults.set({ kind: 'slow', delay: '300ms' });
    const contract = () =>
      api(platform.apiKey, '/api/contract', {
        action: 'create',
        clientKey,
        contract: { name: 'A', value: '<p>a</p>' },
      });
    await contract();
    const state = await tenant.settle();
    expect(state.now).toBe('2026-03-01T09:00:00.000Z'); // time did not move
    expect((await tenant.webhooks.deliveries())[0]!.attempts).toHaveLength(1);
    await contract();
    await createControlClient(sandbox.url).settle();
    expect((await tenant.webhooks.deliveries()).map((d) => d.attempts.length)).toEqual([1, 1]);
    expect(receiver.deliveries).toHaveLength(2);
    await receiver.close();
  });

  it('runs what is due now, and leaves what is due later', async () => {
    const platform = await sandbox.createPlatform({ clock: 'frozen' });
    const tenant = sandbox.tenant(platform.apiKey);
    await tenant.scenarios.load('name: later\ntimeline:\n  - { id: soon, at: 1m, expireTokens: all }\n');
    expect((await tenant.settle()).pendingTimers).toBe(1);
    await tenant.clock.advance('1m');
    expect((await tenant.scenarios.get('later')).log.map((l) => l.cause)).toEqual(['scenario:later:soon']);
  });
});

describe('the report', () => {
  it('is the same from the library, the control client and HTTP, scoped to a tenant', async () => {
    const platform = await sandbox.createPlatform();
    for (let i = 0; i < 3; i++) await api(platform.apiKey, '/api/contract', { action: 'read' });
    const library = await sandbox.tenant(platform.apiKey).report();
    const client = await createControlClient(sandbox.url).tenant(platform.apiKey).report();
    expect({ ...client, at: undefined }).toEqual({ ...library, at: undefined });
    expect(library).toMatchObject({ tenant: platform.apiKey, verdict: 'ready', summary: { warnings: 1 } });
    expect(library.findings[0]!.id).toBe('client-errors');
    const http = await fetch(`${sandbox.url}/__sandbox/platforms/${platform.apiKey}/report?ignore=client-errors`);
    expect(((await http.json()) as { findings: { id: string }[] }).findings.map((f) => f.id)).not.toContain(
      'client-errors',
    );
  });

  it('answers JUnit XML and Markdown with their content types, and refuses another format', async () => {
    const junit = await fetch(`${sandbox.url}/__sandbox/report?format=junit`);
    expect(junit.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(await junit.text()).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites /);
    const markdown = await fetch(`${sandbox.url}/__sandbox/report?format=markdown`);
    expect(markdown.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(await markdown.text()).toMatch(/^## Go-live readiness: /);
    const bad = await fetch(`${sandbox.url}/__sandbox/report?format=pdf`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toBe(
      'format must be json, junit or markdown (got "pdf")',
    );
    const threshold = await fetch(`${sandbox.url}/__sandbox/report?pollingWindow=soon`);
    expect(threshold.status).toBe(400);
  });
});

describe('assertions', () => {
  it('assertReady fails with the evidence when the report is not ready, and with failOn: warning on warnings', async () => {
    const platform = await sandbox.createPlatform();
    expect(() => assertReady({ findings: [] } as never)).not.toThrow();
    for (let i = 0; i < 3; i++) await api(platform.apiKey, '/api/contract', { action: 'read' });
    const report = await sandbox.tenant(platform.apiKey).report();
    expect(() => assertReady(report)).not.toThrow();
    let failure: unknown;
    try {
      assertReady(report, { failOn: 'warning' });
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(AssertionError);
    expect((failure as Error).message).toMatch(/^the integration is not ready \(client-errors\):/);
    expect((failure as Error).message).toMatch(/request \d+: POST \/api\/contract \(read\) → 400/);
  });

  it('assertExpectationsMet names each expectation not met, with its evidence', () => {
    const summary = (name: string, statuses: string[]) =>
      ({
        name,
        expectations: statuses.map((status, i) => ({ id: `e${i}`, status, evidence: `why ${i}` })),
      }) as unknown as ScenarioSummary;
    expect(() => assertExpectationsMet(summary('a', ['met', 'met']))).not.toThrow();
    expect(() => assertExpectationsMet([summary('a', ['met']), summary('b', ['pending', 'failed'])])).toThrow(
      '2 scenario expectations are not met:\n  b: e0 is pending: why 0\n  b: e1 is failed: why 1',
    );
  });
});

// The fixture as a suite uses it: the sandbox is known once beforeAll has run, so it is reached through a getter.
const test = base.extend({
  tenant: tenantFixture(
    { createPlatform: (input) => sandbox.createPlatform(input), tenant: (apiKey) => sandbox.tenant(apiKey) },
    { clock: 'frozen', start: '2026-06-01T00:00:00Z' },
  ),
});
const seen: string[] = [];

describe('the vitest fixture', () => {
  test('gives each test a tenant of its own, on its own clock', async ({ tenant }) => {
    seen.push(tenant.apiKey);
    expect((await tenant.clock.now()).toISOString()).toBe('2026-06-01T00:00:00.000Z');
    await tenant.scenarios.load('name: mine\n');
    await api(tenant.apiKey, '/api/client', { action: 'list' });
  });

  test('and another to the next test', async ({ tenant }) => {
    seen.push(tenant.apiKey);
    expect(seen[0]).not.toBe(seen[1]);
  });

  it('dropped the first tenant’s world after its test', async () => {
    const first = sandbox.tenant(seen[0]!);
    expect((await first.scenarios.list()).active).toEqual([]);
    expect(await first.requests()).toEqual([]);
  });

  it('fails the test with the evidence when asked for readiness and the tenant is not ready', async () => {
    const fixture = tenantFixture(sandbox, { ready: 'warning' });
    const run = fixture({ task: { name: 'refused calls' } }, async (tenant) => {
      for (let i = 0; i < 3; i++) await api(tenant.apiKey, '/api/contract', { action: 'read' });
    });
    await expect(run).rejects.toThrow(/the integration is not ready \(client-errors\)/);
  });
});

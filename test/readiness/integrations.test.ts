/**
 * The readiness report judging two integrations on one sandbox, each in its own tenant (docs/readiness.md): the
 * careful one is `ready` with no error and no warning; the naive one gets exactly its planted defects, by id, with
 * evidence a person finds in the journal and the delivery log. Both meet the same hard days: a 503 and a 429 with
 * Retry-After, tokens expired mid-flow, a forged, a stale and a duplicate delivery.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createControlClient } from '../../src/client/control-client.js';
import type { ReadinessReport } from '../../src/readiness/report.js';
import { type Sandbox, createSandbox } from '../../src/sandbox.js';
import { type Integration, integration, steppedWall } from '../support/integrations.js';
import { type TenantHandle, makeTenant } from '../support/tenant-kit.js';

const START = '2026-03-01T09:00:00.000Z';
let sandbox: Sandbox;
let url: string;
const runs: { tenant: TenantHandle; app: Integration; contractKey: string }[] = [];
let careful: ReadinessReport;
let naive: ReadinessReport;

/** The same hard days for both tenants. */
async function plantHardDays(tenant: TenantHandle) {
  await tenant.control('POST', '/faults', {
    faults: [
      { match: { path: '/api/contract', action: 'create' }, status: 503, retryAfter: 30, times: 1 },
      { match: { path: '/api/contract', action: 'read' }, status: 429, retryAfter: 30, times: 1 },
    ],
  });
  await tenant.control('POST', '/webhook-faults', {
    faults: [
      { kind: 'bad-signature', match: { event: 'contract.created' }, times: 1 },
      { kind: 'stale-timestamp', match: { event: 'contract.sent' }, times: 1 },
      { kind: 'duplicate', match: { event: 'contract.signed' }, times: 1 },
    ],
  });
}

beforeAll(async () => {
  const wall = steppedWall();
  sandbox = await createSandbox({ log: 'none' }, { port: 0, webhooksAfterListen: true, wall: wall.now });
  url = await sandbox.listen();
  for (const careful of [true, false]) {
    const tenant = await makeTenant(url, START, careful ? 'careful' : 'naive');
    const client = await tenant.api('/api/client', {
      data: { action: 'create', client: { fullname: 'Platform Client', email: 'client@example.com' } },
    });
    await plantHardDays(tenant);
    const app = await integration({ careful, url, tenant, clientKey: client.body.client.clientKey, wait: wall.wait });
    runs.push({ tenant, app, contractKey: await app.start() });
  }
  for (const { tenant, app, contractKey } of runs) {
    await tenant.control('POST', '/settle');
    await tenant.control('POST', '/tokens/expire');
    const contract = await tenant.control('GET', `/contracts/${contractKey}`);
    await tenant.control('POST', `/recipients/${contract.recipients[0].recipientKey}/sign`);
    await tenant.control('POST', '/settle');
    await app.learnSigned(contractKey);
    // Long enough for the retries of the refused deliveries.
    await tenant.control('POST', '/clock/advance', { by: '1h' });
  }
  const client = createControlClient(url);
  careful = await client.tenant(runs[0]!.tenant.apiKey).report();
  naive = await client.tenant(runs[1]!.tenant.apiKey).report({ slowWebhook: '1s' });
}, 60_000);

afterAll(async () => {
  for (const { app } of runs) await app.close();
  await sandbox?.close();
});

const judged = (report: ReadinessReport) => report.findings.filter((f) => f.severity !== 'info').map((f) => f.id);

describe('two integrations on one sandbox', () => {
  it('the careful one is ready, with no error and no warning', () => {
    expect(judged(careful)).toEqual([]);
    expect(careful.verdict).toBe('ready');
    expect(careful.tenant).toBe(runs[0]!.tenant.apiKey);
    // It met every hard day planted, so only the one it was never given is untested.
    expect(careful.findings.map((f) => f.id)).toEqual(['untested-out-of-order-webhook']);
  });

  it('the naive one gets exactly its planted defects', () => {
    expect(naive.verdict).toBe('not-ready');
    expect(judged(naive).sort()).toEqual(
      [
        'polling',
        'ignores-retry-after',
        'expired-token-reused',
        'accepts-forged-webhook',
        'accepts-stale-webhook',
        'webhook-receiver-failing',
        'rejects-duplicate',
        'slow-webhook-receiver',
      ].sort(),
    );
    const count = (id: string) => naive.findings.find((f) => f.id === id)!.count;
    expect(count('ignores-retry-after')).toBe(2); // the create after its 503, the read after its 429
    expect(count('polling')).toBe(12);
  });

  it('each finding has evidence a person finds in the tenant’s journal and delivery log', async () => {
    const tenant = runs[1]!.tenant;
    const requests = new Set(
      ((await tenant.control('GET', '/requests')).requests as { id: number }[]).map((r) => r.id),
    );
    const deliveries = new Set(
      ((await tenant.control('GET', '/webhook-deliveries')).deliveries as { id: string }[]).map((d) => d.id),
    );
    for (const finding of naive.findings.filter((f) => f.severity !== 'info')) {
      expect(finding.evidence.length, finding.id).toBeGreaterThan(0);
      for (const e of finding.evidence) {
        if (e.type === 'request') expect(requests.has(e.id), `${finding.id}: request ${e.id}`).toBe(true);
        else expect(deliveries.has(e.id), `${finding.id}: delivery ${e.id}`).toBe(true);
      }
    }
    const reuse = naive.findings.find((f) => f.id === 'expired-token-reused')!;
    expect(reuse.evidence.map((e) => e.detail)).toEqual([
      'token #1: "Token expired"',
      'token #1 sent again after that 401',
    ]);
    const forged = naive.findings.find((f) => f.id === 'accepts-forged-webhook')!;
    expect(forged.evidence[0]).toMatchObject({ type: 'delivery', event: 'contract.created', attempt: 1, status: 200 });
  });

  it('the whole sandbox’s report holds both tenants’ findings; control calls never count', async () => {
    const whole = await createControlClient(url).report({ slowWebhook: '1s' });
    expect(judged(whole).sort()).toEqual(judged(naive).sort());
    const calls = whole.coverage.operations.map((o) => o.path);
    expect(calls.every((path) => path.startsWith('/api/'))).toBe(true);
    expect(whole.observed.requests).toBe(careful.observed.requests + naive.observed.requests);
  });

  it('coverage: operations called, errors met, events delivered and accepted', () => {
    expect(careful.coverage.operations).toContainEqual({
      method: 'POST',
      path: '/api/contract',
      action: 'read',
      count: 3,
    });
    expect(careful.coverage.errors).toEqual(
      expect.arrayContaining([
        { status: 503, message: 'Service unavailable; retry after 30 seconds', count: 1 },
        { status: 401, message: 'Token expired', count: 1 },
      ]),
    );
    expect(careful.coverage.events).toContainEqual({ event: 'contract.fully_signed', delivered: 1, accepted: 1 });
  });
});

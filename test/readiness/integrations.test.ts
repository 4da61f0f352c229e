/**
 * The readiness report judging two integrations on one sandbox, each in its own tenant (docs/readiness.md): the
 * careful one is `ready` with no error and no warning; the naive one gets exactly its planted defects, by id, with
 * evidence a person finds in the journal and the delivery log. Both meet the same hard days: a 503 and a 429 with
 * Retry-After, tokens expired mid-flow, a forged, a stale and a duplicate delivery.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createControlClient } from '../../src/client/control-client.js';
import type { ReadinessReport } from '../../src/readiness/report.js';
import { NAIVE_DEFECTS, type Rehearsal, rehearse } from '../support/integrations.js';
import type { TenantHandle } from '../support/tenant-kit.js';

let run: Rehearsal;
let careful: ReadinessReport;
let naive: ReadinessReport;

/** The same hard days for both tenants, and tokens expired mid-flow (as the signer signs). */
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
  await tenant.control('POST', '/scenarios', {
    yaml: 'name: expiry\ntimeline:\n  - { when: contract.signed, expireTokens: all }\n',
  });
}

beforeAll(async () => {
  run = await rehearse(plantHardDays);
  ({ careful, naive } = run);
}, 60_000);

afterAll(() => run?.close());

const judged = (report: ReadinessReport) => report.findings.filter((f) => f.severity !== 'info').map((f) => f.id);

describe('two integrations on one sandbox', () => {
  it('the careful one is ready, with no error and no warning', () => {
    expect(judged(careful)).toEqual([]);
    expect(careful.verdict).toBe('ready');
    expect(careful.tenant).toBe(run.tenants.careful.apiKey);
    // It met every hard day planted, so only the one it was never given is untested.
    expect(careful.findings.map((f) => f.id)).toEqual(['untested-out-of-order-webhook']);
  });

  it('the naive one gets exactly its planted defects', () => {
    expect(naive.verdict).toBe('not-ready');
    expect(judged(naive).sort()).toEqual(NAIVE_DEFECTS);
    const count = (id: string) => naive.findings.find((f) => f.id === id)!.count;
    expect(count('ignores-retry-after')).toBe(2); // the create after its 503, the read after its 429
    expect(count('polling')).toBe(12);
  });

  it('each finding has evidence a person finds in the tenant’s journal and delivery log', async () => {
    const tenant = run.tenants.naive;
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
    const whole = await createControlClient(run.url).report({ slowWebhook: '1s' });
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

  it('counts each tenant’s /api requests only: its scoped control calls and its signer’s page never', async () => {
    const tenant = run.tenants.naive;
    const [email] = (await tenant.control('GET', '/emails')).emails as { link: string }[];
    expect((await fetch(new URL(new URL(email!.link).pathname, run.url))).status).toBe(200);
    const kinds = ((await tenant.control('GET', '/requests')).requests as { kind: string }[]).map((r) => r.kind);
    expect(new Set(kinds)).toEqual(new Set(['api', 'control', 'page']));
    const again = await createControlClient(run.url).tenant(tenant.apiKey).report({ slowWebhook: '1s' });
    expect(again.observed.requests).toBe(kinds.filter((k) => k === 'api').length);
    expect(again.observed.requests).toBe(naive.observed.requests);
    expect(judged(again)).toEqual(judged(naive));
  });
});

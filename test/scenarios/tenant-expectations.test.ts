/**
 * An expectation hears every answer its tenant's integration got (docs/scenarios.md, "expect"), the 401 of an expired
 * token included: that answer is the tenant's, as the request journal files it. Each condition kind, with the
 * scenario loaded for the tenant (scoped) and for the whole sandbox (unscoped), read on the control API, the library
 * and the dashboard alike; and the false `met` a team met.
 */
import { describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/index.js';
import { EXPECT_KINDS } from '../../src/scenarios/reaction-schema.js';
import { type WebhookReceiver, createWebhookReceiver } from '../../src/testing/webhook-receiver.js';
import { FROZEN, type TestSandbox, closeAfterEach, testDoors } from '../support/helpers.js';
import { subscribe } from '../support/webhook-support.js';
import { createContract } from '../support/contract-walk.js';

const opened = closeAfterEach();
let t: TestSandbox | undefined;
let library: RunningSandbox | undefined;
let receiver: WebhookReceiver | undefined;

interface World {
  apiKey: string;
  /** A client token of the tenant's, expired by a 31-minute advance. */
  expired: string;
}

/**
 * A tenant made over the control API; `loaded` runs then (the scenario loads before the tenant does anything); then
 * its integration makes a client, a webhook to a receiver, and a contract sent to one signer.
 */
async function tenantWorld(loaded: (apiKey: string) => Promise<void>): Promise<World> {
  library = opened(await startSandbox(FROZEN));
  t = testDoors(library.sandbox);
  receiver = opened(await createWebhookReceiver());
  const made = await t.control('/platforms', { name: 'acme' });
  expect(made.status).toBe(201);
  const { apiKey } = made.body;
  await loaded(apiKey);
  const client = await t.post('/api/client', { data: { action: 'create', client: { fullname: 'Acme' } } }, { apiKey });
  const clientKey = client.body.client.clientKey as string;
  const platformToken = await t.platformToken({ apiKey, secret: made.body.secret });
  const expired = await t.clientToken(clientKey, platformToken);
  await subscribe(t, receiver, { bearer: expired });
  const sent = await createContract(t, { bearer: expired }, { name: 'Lease', value: '<p>Terms</p>' }, [
    { email: 'ann@example.com', action: 'sign' },
  ]);
  expect(sent.status).toBe(201);
  return { apiKey, expired };
}

/** Loads `expect` for the tenant (scoped) or for the whole sandbox, before the world's activity. */
async function load(scoped: boolean, apiKey: string, expectYaml: string): Promise<string> {
  const prefix = scoped ? `/platforms/${apiKey}` : '';
  const res = await t!.control(`${prefix}/scenarios`, { yaml: `name: judge\nexpect:\n  - ${expectYaml}` });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return prefix;
}

/**
 * The expectation as the control API, the library and the dashboard show it (the tenant's, or the whole sandbox's):
 * the three doors agree.
 */
async function judged(prefix: string, apiKey: string, scoped: boolean): Promise<{ status: string; evidence: string }> {
  // Deliveries leave once the instant's other work is done (docs/scenarios.md, "Order"): wait for them.
  await t!.sandbox.services.clocks.sandbox.work.settled();
  const res = await t!.control(`${prefix}/scenarios/judge`);
  expect(res.status).toBe(200);
  const [overHttp] = res.body.expectations;
  const [fromLibrary] = (await (scoped ? library!.tenant(apiKey) : library!).scenarios.get('judge')).expectations;
  expect(fromLibrary).toEqual(overHttp);
  const page = await t!.request(`/__sandbox/ui?tab=scenarios${scoped ? `&tenant=${apiKey}` : ''}`);
  expect(page.body).toContain(`data-expectation="${overHttp.id}" data-status="${overHttp.status}"`);
  return overHttp;
}

/** The tenant's integration uses its token after it expired: 401 Token expired. */
async function useExpiredToken(world: World): Promise<void> {
  await t!.control('/clock/advance', { by: '31m' });
  const res = await t!.post('/api/contract', { data: { action: 'list' } }, { bearer: world.expired });
  expect(res.body).toEqual({ code: 401, message: 'Token expired' });
}

/** Each condition kind: what the world does after the load, and how the expectation stands then. */
const KINDS: Array<{
  kind: string;
  yaml: string;
  afterwards?(w: World): Promise<void>;
  status: string;
  evidence: RegExp;
}> = [
  {
    kind: 'request (a 401)',
    yaml: '{ id: saw-401, request: { path: /api/contract, status: 401 } }',
    afterwards: useExpiredToken,
    status: 'met',
    evidence: /^POST \/api\/contract \(list\) answered 401/,
  },
  {
    kind: 'noRequest (a 4xx, the 401 of an expired token)',
    yaml: '{ id: no-4xx, noRequest: { path: /api/*, status: 4xx } }',
    afterwards: useExpiredToken,
    status: 'failed',
    evidence: /^POST \/api\/contract \(list\) answered 401/,
  },
  {
    kind: 'delivery',
    yaml: '{ id: delivered, delivery: { event: contract.sent } }',
    status: 'met',
    evidence: /^delivery dlv_\d+ of contract\.sent to \w+ answered 200/,
  },
  {
    kind: 'noDelivery',
    yaml: '{ id: none-sent, noDelivery: { event: contract.sent } }',
    status: 'failed',
    evidence: /^delivery dlv_\d+ of contract\.sent to \w+ answered 200/,
  },
  {
    kind: 'contract',
    yaml: '{ id: lease-sent, contract: { name: Lease, status: Sent } }',
    status: 'met',
    evidence: /contract\.sent of "Lease"/,
  },
];

describe("an expectation hears every answer its tenant's integration got", () => {
  it('is tried with every condition kind the scenario format has', () => {
    expect(new Set(KINDS.map((k) => k.kind.split(' ')[0]))).toEqual(new Set(EXPECT_KINDS));
  });

  for (const scoped of [true, false]) {
    for (const k of KINDS) {
      it(`${k.kind}, loaded ${scoped ? 'for the tenant' : 'for the whole sandbox'}`, async () => {
        let prefix = '';
        const world = await tenantWorld(async (apiKey) => {
          prefix = await load(scoped, apiKey, k.yaml);
        });
        await k.afterwards?.(world);
        const e = await judged(prefix, world.apiKey, scoped);
        expect(e.status, e.evidence).toBe(k.status);
        expect(e.evidence).toMatch(k.evidence);
      });
    }
  }
});

describe('the false met a team met: a tenant scenario saying "no 4xx" while the tenant got 401 Token expired', () => {
  it('is failed, with the 401 as evidence, on the control API, the library and the dashboard', async () => {
    const sandbox = opened(await startSandbox({ clock: 'frozen', start: FROZEN.start }));
    const { apiKey, secret } = await sandbox.createPlatform({ name: 'acme' });
    const tenant = sandbox.tenant(apiKey);
    await tenant.scenarios.load('name: judge\nexpect:\n  - { id: no-4xx, noRequest: { path: /api/*, status: 4xx } }');
    const api = async (body: unknown, auth: Record<string, string>) => {
      const res = await fetch(`${sandbox.url}/api/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...auth },
        body: JSON.stringify(body),
      });
      return (await res.json()) as Record<string, any>;
    };
    const { access_token: token } = await api({ data: { action: 'create', apiKey, secret } }, {});
    await sandbox.clock.advance('31m');
    expect(await api({ action: 'create', clientKey: 'nobody' }, { authorization: `Bearer ${token}` })).toEqual({
      code: 401,
      message: 'Token expired',
    });
    const evidence = /^POST \/api\/token \(create\) answered 401/;

    const [fromLibrary] = (await tenant.scenarios.get('judge')).expectations;
    expect(fromLibrary).toMatchObject({ id: 'no-4xx', status: 'failed', evidence: expect.stringMatching(evidence) });
    const overHttp = await fetch(`${sandbox.url}/__sandbox/platforms/${apiKey}/scenarios/judge`);
    expect(((await overHttp.json()) as any).expectations[0]).toEqual(fromLibrary);
    const page = await (await fetch(`${sandbox.url}/__sandbox/ui?tab=scenarios&tenant=${apiKey}`)).text();
    expect(page).toContain('data-expectation="no-4xx" data-status="failed"');
  });
});

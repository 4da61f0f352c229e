import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxOptions } from '../../src/config/options.js';
import { createWebhookReceiver, type WebhookReceiver } from '../../src/testing/webhook-receiver.js';
import { FROZEN, type TestSandbox, testSandbox } from '../support/helpers.js';
import { subscribe } from '../support/webhook-support.js';
import { createContract } from '../support/contract-walk.js';

/** The same scenario on a frozen clock and on a real one (moved by advances as well as by wall time). */
const CLOCKS: [string, SandboxOptions][] = [
  ['a frozen clock', FROZEN],
  ['a real clock', { clock: 'real', start: '2026-03-01T09:00:00.000Z' }],
];

const SCENARIO = `
name: check
recipients:
  - { id: signer, match: {}, sign: 20m }
timeline:
  - { id: tokens-expire, at: 10m, expireTokens: all }
expect:
  - id: new-token
    request: { path: /api/token, status: 2xx }
    after: { step: tokens-expire }
    within: 30m
  - id: no-client-errors
    noRequest: { status: 4xx }
  - id: read-after-signed
    request: { path: /api/contract, action: read }
    after: contract.signed
  - id: fully-signed-delivered
    delivery: { event: contract.fully_signed }
    by: 1h
  - id: lease-fully-signed
    contract: { name: Lease, status: Fully signed }
    by: 1h
`;

let t: TestSandbox;
let receiver: WebhookReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
  await t?.close();
});

const advance = (by: string) => t.control('/clock/advance', { by });
const report = async () => (await t.control('/scenarios/check')).body.expectations as any[];
const statuses = async () => Object.fromEntries((await report()).map((e) => [e.id, e.status]));

/** What a platform does before the hard part: a webhook, a contract sent to one signer. */
async function start(options: SandboxOptions): Promise<{ bearer: string; contractKey: string }> {
  t = await testSandbox(options);
  receiver = await createWebhookReceiver();
  expect((await t.control('/scenarios', { yaml: SCENARIO })).status).toBe(201);
  const auth = { bearer: await t.clientToken() };
  await subscribe(t, receiver, auth);
  const sent = await createContract(t, auth, { name: 'Lease', value: '<p>Terms</p>' }, [
    { fullname: 'Ann', email: 'ann@example.com', action: 'sign' },
  ]);
  expect(sent.status).toBe(201);
  return { ...auth, contractKey: sent.body.contract.contractKey };
}

describe.each(CLOCKS)('expectations on %s', (_clock, options) => {
  it('are pending before anything happened, and met by a correct integration', async () => {
    const { contractKey } = await start(options);
    expect(await statuses()).toEqual({
      'new-token': 'pending',
      'no-client-errors': 'met',
      'read-after-signed': 'pending',
      'fully-signed-delivered': 'pending',
      'lease-fully-signed': 'pending',
    });
    expect((await report())[0].evidence).toBe('step tokens-expire has not happened');
    await advance('10m');
    // A correct integration gets a new token once the old one expired, before using it again.
    const bearer = await t.clientToken();
    await advance('10m');
    const read = await t.post('/api/contract', { data: { action: 'read', contract: { contractKey } } }, { bearer });
    expect(read.status).toBe(200);
    expect(await statuses()).toEqual({
      'new-token': 'met',
      'no-client-errors': 'met',
      'read-after-signed': 'met',
      'fully-signed-delivered': 'met',
      'lease-fully-signed': 'met',
    });
    const evidence = Object.fromEntries((await report()).map((e) => [e.id, e.evidence]));
    expect(evidence['new-token']).toMatch(/^POST \/api\/token \(create\) answered 201 at 2026-03-01T09:1/);
    expect(evidence['read-after-signed']).toMatch(/^POST \/api\/contract \(read\) answered 200 at /);
    expect(evidence['fully-signed-delivered']).toMatch(
      /^delivery dlv_\d+ of contract.fully_signed to \w+ answered 200 at /,
    );
    expect(evidence['no-client-errors']).toBe('none so far');
    // Past the deadlines, what was met stays met.
    await advance('2h');
    expect(Object.values(await statuses())).toEqual(['met', 'met', 'met', 'met', 'met']);
  });

  it('fail for a wrong integration: the old token used again, nothing read, deadlines passed', async () => {
    const { bearer } = await start(options);
    await advance('10m');
    const stale = await t.post('/api/contract', { data: { action: 'list' } }, { bearer });
    expect(stale.status).toBe(401);
    expect(await statuses()).toMatchObject({ 'new-token': 'pending', 'no-client-errors': 'failed' });
    const evidence = Object.fromEntries((await report()).map((e) => [e.id, e.evidence]));
    expect(evidence['no-client-errors']).toMatch(/^POST \/api\/contract \(list\) answered 401 at /);
    expect(evidence['new-token']).toMatch(/^nothing matching yet \(deadline 2026-03-01T09:40:00\.000Z\)$/);
    await advance('31m');
    expect(await statuses()).toMatchObject({ 'new-token': 'failed', 'read-after-signed': 'pending' });
    expect((await report())[0].evidence).toMatch(
      /^deadline 2026-03-01T09:40:00\.000Z passed: nothing matching after step tokens-expire ran$/,
    );
    // A new token after the deadline does not turn it round.
    await t.clientToken();
    expect((await statuses())['new-token']).toBe('failed');
  });
});

describe('expectations about deliveries', () => {
  it('fail when no delivery was answered 2xx by the deadline, and when one was answered 5xx', async () => {
    t = await testSandbox(FROZEN);
    receiver = await createWebhookReceiver();
    const auth = { bearer: await t.clientToken() };
    await subscribe(t, receiver, auth);
    const res = await t.control('/scenarios', {
      yaml: `
name: check
recipients:
  - { id: signer, match: {}, sign: 5m }
timeline:
  - { id: down, at: 0s, webhookOutage: { status: 503 } }
expect:
  - { id: delivered, delivery: { event: contract.fully_signed }, by: 1h }
  - { id: never-5xx, noDelivery: { status: 5xx }, by: 1h }
data:
  clients:
    - clientKey: demoClient
      contracts:
        - { name: Lease, value: <p>x</p>, send: true, recipients: [{ email: ann@example.com, action: sign }] }
`,
    });
    expect(res.status).toBe(201);
    expect(await statuses()).toEqual({ delivered: 'pending', 'never-5xx': 'failed' });
    await advance('1h');
    expect(await statuses()).toEqual({ delivered: 'pending', 'never-5xx': 'failed' });
    await advance('1ms');
    const r = await report();
    expect(r[0]).toEqual({
      id: 'delivered',
      status: 'failed',
      evidence: 'deadline 2026-03-01T10:00:00.000Z passed: nothing matching',
    });
    expect(r[1].evidence).toMatch(
      /^delivery dlv_\d+ of contract\.created to \w+ answered 503 at 2026-03-01T09:00:00\.000Z$/,
    );
  });
});

describe('expectations of a scenario loaded for a tenant', () => {
  it('open on the scenario’s own steps', async () => {
    t = await testSandbox(FROZEN);
    const yaml = `
name: steps
timeline:
  - { id: tokens-expire, at: 10m, expireTokens: all }
expect:
  - { id: read-after-expiry, request: { path: /api/contract, action: list }, after: { step: tokens-expire } }
`;
    expect((await t.control('/platforms/sandboxApiKey/scenarios', { yaml })).status).toBe(201);
    await t.control('/platforms/sandboxApiKey/clock/advance', { by: '10m' });
    const auth = { bearer: await t.clientToken() };
    expect((await t.post('/api/contract', { data: { action: 'list' } }, auth)).status).toBe(200);
    const [expectation] = (await t.control('/platforms/sandboxApiKey/scenarios/steps')).body.expectations;
    expect(expectation).toMatchObject({ id: 'read-after-expiry', status: 'met' });
  });
});

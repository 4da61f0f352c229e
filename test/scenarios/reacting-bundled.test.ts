import { afterEach, describe, expect, it } from 'vitest';
import { type WebhookReceiver, createWebhookReceiver } from '../../src/testing/webhook-receiver.js';
import { FROZEN, type TestSandbox, testSandbox } from '../support/helpers.js';
import { subscribe } from '../support/webhook-support.js';
import { createContract } from '../support/contract-walk.js';

/** The two bundled scenarios built on reactions: a correct integration meets their expectations, a wrong one fails. */
let t: TestSandbox | undefined;
let receiver: WebhookReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  await t?.close();
  t = receiver = undefined;
});

const advance = async (by: string) => expect((await t!.control('/clock/advance', { by })).status).toBe(200);
const statuses = async (name: string) =>
  Object.fromEntries(
    ((await t!.control(`/scenarios/${name}`)).body.expectations as any[]).map((e) => [e.id, e.status]),
  );

describe('receiver-down-after-last-signature', () => {
  async function start(): Promise<{ bearer: string; contractKey: string }> {
    t = await testSandbox(FROZEN);
    receiver = await createWebhookReceiver();
    const auth = { bearer: await t.clientToken() };
    await subscribe(t, receiver, auth);
    expect((await t.control('/scenarios', { name: 'receiver-down-after-last-signature' })).status).toBe(201);
    const contractKey = t.sandbox.services.store.contracts
      .all()
      .find((c) => c.name === 'Lease with two signers')!.contractKey;
    return { ...auth, contractKey };
  }

  it('is met by a platform that answers the retried delivery and then reads the contract', async () => {
    const { bearer, contractKey } = await start();
    await advance('2d1h');
    // The last signature takes the receiver down before the full signature's delivery goes out.
    const fully = () => receiver!.deliveries.filter((d) => d.payload?.type === 'contract.fully_signed');
    expect(fully()).toHaveLength(0);
    expect(await statuses('receiver-down-after-last-signature')).toMatchObject({ 'fully-signed-delivered': 'pending' });
    await advance('8h');
    expect(fully().length).toBeGreaterThan(0);
    // The platform's webhook handler reads the contract (with a fresh token: the old one expired meanwhile).
    const fresh = { bearer: await t!.clientToken() };
    expect(bearer).not.toBe(fresh.bearer);
    const read = await t!.post('/api/contract', { data: { action: 'read', contract: { contractKey } } }, fresh);
    expect(read.status).toBe(200);
    expect(await statuses('receiver-down-after-last-signature')).toEqual({
      'fully-signed-delivered': 'met',
      'signed-contract-read': 'met',
      'no-client-errors': 'met',
    });
  });

  it('fails a platform whose receiver refuses the delivery and which reuses its expired token', async () => {
    const { bearer, contractKey } = await start();
    receiver!.failNext(100, { status: 500 });
    await advance('2d1h');
    await advance('8h');
    const stale = await t!.post('/api/contract', { data: { action: 'read', contract: { contractKey } } }, { bearer });
    expect(stale.status).toBe(401);
    await advance('1h1m');
    expect(await statuses('receiver-down-after-last-signature')).toEqual({
      'fully-signed-delivered': 'failed',
      'signed-contract-read': 'failed',
      'no-client-errors': 'failed',
    });
  });
});

describe('token-revoked-after-send', () => {
  async function send(): Promise<{ bearer: string; contractKey: string }> {
    t = await testSandbox(FROZEN);
    expect((await t.control('/scenarios', { name: 'token-revoked-after-send' })).status).toBe(201);
    const bearer = await t.clientToken();
    const sent = await createContract(t, { bearer }, { name: 'Deal', value: '<p>x</p>' }, [
      { fullname: 'Sam', email: 'sam@example.com', action: 'sign' },
    ]);
    expect(sent.status).toBe(201);
    return { bearer, contractKey: sent.body.contract.contractKey };
  }

  it('is met by a platform that gets a new token after the 401 and reads the signed contract', async () => {
    const { bearer, contractKey } = await send();
    const refused = await t!.post('/api/contract', { data: { action: 'read', contract: { contractKey } } }, { bearer });
    expect(refused.status).toBe(401);
    expect(refused.body.message).toMatch(/revoked/i);
    const fresh = { bearer: await t!.clientToken() };
    await advance('10m');
    const read = await t!.post('/api/contract', { data: { action: 'read', contract: { contractKey } } }, fresh);
    expect(read.status).toBe(200);
    expect(await statuses('token-revoked-after-send')).toEqual({
      'new-token-after-revocation': 'met',
      'contract-read-after-signing': 'met',
    });
  });

  it('fails a platform that keeps using the revoked token', async () => {
    const { bearer, contractKey } = await send();
    await advance('10m');
    const read = await t!.post('/api/contract', { data: { action: 'read', contract: { contractKey } } }, { bearer });
    expect(read.status).toBe(401);
    expect(await statuses('token-revoked-after-send')).toEqual({
      'new-token-after-revocation': 'pending',
      'contract-read-after-signing': 'pending',
    });
    await advance('1h1m');
    expect(await statuses('token-revoked-after-send')).toEqual({
      'new-token-after-revocation': 'failed',
      'contract-read-after-signing': 'failed',
    });
  });
});

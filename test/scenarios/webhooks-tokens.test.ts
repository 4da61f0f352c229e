import { afterEach, describe, expect, it } from 'vitest';
import { type WebhookReceiver, createWebhookReceiver } from '../../src/testing/webhook-receiver.js';
import { ALL_FLAGS } from '../support/webhook-support.js';
import { type Play, play } from './play.js';
import { createContract } from '../support/contract-walk.js';

let p: Play;
let receiver: WebhookReceiver | undefined;
afterEach(async () => {
  await p?.close();
  await receiver?.close();
  receiver = undefined;
});

describe('bundled scenario: webhook-outage', () => {
  it('fails deliveries with 503 for an hour, then a retry delivers every event once', async () => {
    receiver = await createWebhookReceiver();
    const r = receiver;
    p = await play('webhook-outage', undefined, async (t) => {
      const res = await t.post(
        '/api/webhook',
        { data: { action: 'create', webhooks: [{ url: r.url, ...ALL_FLAGS }] } },
        await t.demoAuth(),
      );
      r.useSecret(res.body.webhooks[0].secret);
    });
    const auth = await p.t.demoAuth();
    const created = await createContract(p.t, auth, { name: 'Outage', value: '<p/>' }, [{ email: 'olga@example.com' }]);
    expect(created.status).toBe(201);
    await p.advance('59m');
    // The outage starts when the contract is sent; contract.created, emitted at the same instant, leaves after
    // everything else due then (docs/scenarios.md, "Order"), so the outage holds it too.
    expect(r.deliveries).toEqual([]);
    const during = await p.deliveries();
    expect(during.map((d: any) => [d.event, d.status])).toEqual([
      ['contract.created', 'pending'],
      ['contract.sent', 'pending'],
      ['contract.seen', 'pending'],
      ['contract.signed', 'pending'],
      ['contract.fully_signed', 'pending'],
    ]);
    const failed = during[1].attempts[0];
    expect(failed.statusCode).toBe(503);
    expect(failed.cause).toBe('scenario:webhook-outage:receiver-down');

    await p.advance('3h');
    const after = await p.deliveries();
    expect(after.map((d: any) => d.status)).toEqual(['delivered', 'delivered', 'delivered', 'delivered', 'delivered']);
    expect(
      r
        .accepted()
        .map((d) => d.payload.type)
        .sort(),
    ).toEqual(
      ['contract.created', 'contract.fully_signed', 'contract.seen', 'contract.sent', 'contract.signed'].sort(),
    );
    const signed = after.find((d: any) => d.event === 'contract.signed');
    expect(signed.cause).toBe('scenario:webhook-outage:signer');
    expect(r.deliveries.every((d) => d.verified)).toBe(true);
    expect((await p.t.control('/scenarios/webhook-outage')).body.expectations).toMatchObject([
      { id: 'fully-signed-delivered', status: 'met' },
    ]);
  });
});

describe('bundled scenario: token-expiry', () => {
  it('expires every token 10m after the demo contract is sent and revokes the client tokens 30m later, while the signer signs at 20m', async () => {
    p = await play('token-expiry');
    const before = await p.t.clientToken();
    const list = (bearer: string) => p.t.post('/api/contract', { data: { action: 'list' } }, { bearer });
    expect((await list(before)).status).toBe(200);

    await p.advance('10m');
    expect((await list(before)).body).toEqual({ code: 401, message: 'Token expired' });

    const fresh = await p.t.clientToken();
    await p.advance('10m');
    const contracts = (await list(fresh)).body.contracts;
    expect(contracts.find((c: any) => c.name === 'Token expiry agreement').status).toBe('Fully signed');

    await p.advance('20m');
    expect((await list(fresh)).body).toEqual({ code: 401, message: 'Token revoked' });
    const newest = await p.t.clientToken();
    expect((await list(newest)).status).toBe(200);

    const log = (await p.t.control('/scenarios/token-expiry')).body.log.filter((l: any) => l.cause.includes('tokens'));
    expect(log.map((l: any) => [l.at, l.cause, l.what])).toEqual([
      [
        '2026-03-01T09:00:00.000Z',
        'scenario:token-expiry:tokens-expire',
        'reacting to contract.sent of "Token expiry agreement": runs at 2026-03-01T09:10:00.000Z',
      ],
      [
        '2026-03-01T09:10:00.000Z',
        'scenario:token-expiry:tokens-expire',
        'expireTokens: 2 token(s) expired (reacting to contract.sent of "Token expiry agreement")',
      ],
      [
        '2026-03-01T09:10:00.000Z',
        'scenario:token-expiry:client-tokens-revoked',
        'reacting to step tokens-expire ran: runs at 2026-03-01T09:40:00.000Z',
      ],
      [
        '2026-03-01T09:40:00.000Z',
        'scenario:token-expiry:client-tokens-revoked',
        'revokeTokens: 2 token(s) revoked (reacting to step tokens-expire ran)',
      ],
    ]);
    // Getting a new token after each step meets the scenario's expectations.
    expect((await p.t.control('/scenarios/token-expiry')).body.expectations).toMatchObject([
      { id: 'new-token-after-expiry', status: 'met' },
      { id: 'new-token-after-revocation', status: 'met' },
    ]);
  });
});

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook as SvixWebhook } from 'svix';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { wallNow } from '../../src/core/wall-time.js';
import type { ContractEvent } from '../../src/core/events.js';
import { DEMO, FROZEN } from '../support/helpers.js';
import { ALL_FLAGS, type WebhookHarness, webhookHarness } from '../support/webhook-support.js';

let h: WebhookHarness;
afterEach(() => h?.close());

describe('a delivery', () => {
  // Unmodified public verifiers, with their 5-minute tolerance against wall time (test/webhooks/webhook-wall-time.test.ts
  // does the same across a 30-day clock jump).
  it('is accepted by the public standardwebhooks and svix verifiers, and a tampered one is rejected', async () => {
    h = await webhookHarness();
    const receiver = await h.receiver();
    const { secret } = await h.addWebhook(receiver, { created: true });
    const contractKey = await h.createContract();
    const [got] = await receiver.waitFor(1);
    const headers = {
      'webhook-id': got!.id,
      'webhook-timestamp': String(got!.timestamp),
      'webhook-signature': got!.signature,
    };

    expect(new Webhook(secret).verify(got!.body, headers)).toMatchObject({
      type: 'contract.created',
      data: { contractKey },
    });
    expect(new SvixWebhook(secret).verify(got!.body, headers)).toMatchObject({ type: 'contract.created' });

    const tampered = got!.body.replace(contractKey, 'someoneElse');
    expect(() => new Webhook(secret).verify(tampered, headers)).toThrow();
    expect(() => new SvixWebhook(secret).verify(tampered, headers)).toThrow();
    const otherSecret = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
    expect(() => new Webhook(otherSecret).verify(got!.body, headers)).toThrow();
  });

  it('carries the Standard Webhooks headers signed at wall time, sandbox time in the payload, and only the public payload', async () => {
    h = await webhookHarness(FROZEN);
    const receiver = await h.receiver();
    await h.addWebhook(receiver, { created: true });
    const before = Math.floor(wallNow() / 1000);
    const contractKey = await h.createContract();
    await h.settled();
    const after = Math.floor(wallNow() / 1000);
    const [got] = receiver.deliveries;
    expect(got!.verified).toBe(true);
    expect(got!.headers['content-type']).toBe('application/json');
    expect(got!.headers['user-agent']).toMatch(/^esign-sandbox\//);
    expect(got!.id).toMatch(/^msg_/);
    // webhook-timestamp is wall time at the attempt, not the (frozen) sandbox time; the payload carries sandbox time.
    expect(got!.timestamp).toBeGreaterThanOrEqual(before);
    expect(got!.timestamp).toBeLessThanOrEqual(after);
    expect(got!.timestamp).not.toBe(Date.parse(FROZEN.start) / 1000);
    expect(got!.signature).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(JSON.parse(got!.body)).toEqual({
      type: 'contract.created',
      timestamp: FROZEN.start,
      data: {
        contractKey,
        clientKey: DEMO.clientKey,
        name: expect.stringMatching(/^Contract \d+$/),
        status: 'Created',
        createTime: FROZEN.start,
      },
    });
  });

  it('is logged as delivered with its attempt, cause and payload', async () => {
    h = await webhookHarness(FROZEN);
    const receiver = await h.receiver();
    const { webhookKey } = await h.addWebhook(receiver, { created: true });
    const contractKey = await h.createContract();
    await h.settled();
    const [d] = await h.deliveries();
    expect(d).toMatchObject({
      id: expect.stringMatching(/^dlv_/),
      webhookId: receiver.deliveries[0]!.id,
      webhookKey,
      url: receiver.url,
      event: 'contract.created',
      status: 'delivered',
      contractKey,
      clientKey: DEMO.clientKey,
      cause: 'api',
      createdAt: FROZEN.start,
      attempts: [
        {
          at: FROZEN.start,
          trigger: 'first',
          webhookTimestamp: receiver.deliveries[0]!.timestamp,
          statusCode: 200,
          durationMs: expect.any(Number),
        },
      ],
      payload: { type: 'contract.created', data: { contractKey } },
    });
    expect(d).not.toHaveProperty('nextAttemptAt');
    expect(JSON.stringify(d)).not.toContain('platformId');
  });
});

describe('which webhooks receive an event', () => {
  it.each([
    ['contract.created', 'created'],
    ['contract.sent', 'sent'],
    ['contract.seen', 'seen'],
    ['contract.signed', 'signed'],
    ['contract.approved', 'approved'],
    ['contract.fully_signed', 'fullySigned'],
  ] as const)('%s goes only to webhooks whose %s flag is true', async (type, flag) => {
    h = await webhookHarness(FROZEN);
    const on = await h.receiver();
    const off = await h.receiver();
    await h.addWebhook(on, { [flag]: true });
    await h.addWebhook(off, { ...ALL_FLAGS, [flag]: false });
    h.emit(type, { contractKey: 'c1', recipientKey: 'r1', status: 'Signed' });
    await h.settled();
    expect(on.deliveries.map((d) => d.payload.type)).toEqual([type]);
    expect(on.deliveries[0]!.payload.data).toEqual({
      contractKey: 'c1',
      clientKey: DEMO.clientKey,
      recipientKey: 'r1',
      status: 'Signed',
    });
    expect(off.deliveries).toEqual([]);
  });

  it('sends created and sent from a create-and-send to the webhooks that asked for each', async () => {
    h = await webhookHarness(FROZEN);
    const createdOnly = await h.receiver();
    const sentOnly = await h.receiver();
    await h.addWebhook(createdOnly, { created: true });
    await h.addWebhook(sentOnly, { sent: true });
    await h.createContract({ send: true });
    await h.settled();
    expect(createdOnly.deliveries.map((d) => d.payload.type)).toEqual(['contract.created']);
    expect(sentOnly.deliveries.map((d) => d.payload.type)).toEqual(['contract.sent']);
  });

  it("never sends one client's events to another client's webhooks", async () => {
    h = await webhookHarness(FROZEN);
    const platform = await h.t.platformToken();
    const res = await h.t.post(
      '/api/client',
      { data: { action: 'create', client: { fullname: 'Other Ltd', email: 'other@example.com' } } },
      { bearer: platform },
    );
    expect(res.status).toBe(201);
    const otherAuth = { bearer: await h.t.clientToken(res.body.client.clientKey, platform) };
    const mine = await h.receiver();
    const theirs = await h.receiver();
    await h.addWebhook(mine, { created: true });
    await h.addWebhook(theirs, { created: true }, otherAuth);
    const myContract = await h.createContract();
    const theirContract = await h.createContract({ auth: otherAuth });
    await h.settled();
    expect(mine.deliveries.map((d) => d.payload.data.contractKey)).toEqual([myContract]);
    expect(theirs.deliveries.map((d) => d.payload.data.contractKey)).toEqual([theirContract]);
  });

  it('sends nothing to a webhook that was deleted', async () => {
    h = await webhookHarness(FROZEN);
    const receiver = await h.receiver();
    const { webhookKey } = await h.addWebhook(receiver, { created: true });
    await h.t.post('/api/webhook', { data: { action: 'delete', webhooks: [{ webhookKey }] } }, h.auth);
    await h.createContract();
    await h.settled();
    expect(receiver.deliveries).toEqual([]);
    expect(await h.deliveries()).toEqual([]);
  });
});

describe('order', () => {
  /** The events received, grouped by contract, in arrival order; and the emitted ones the same way. */
  const byContract = (pairs: [string, string][]) => {
    const out = new Map<string, string[]>();
    for (const [contractKey, what] of pairs) out.set(contractKey, [...(out.get(contractKey) ?? []), what]);
    return out;
  };

  for (const concurrency of [undefined, 1]) {
    const how =
      concurrency === 1 ? 'with webhookConcurrency 1, one at a time in event order' : 'each contract in order';
    it(`delivers a burst of events to one endpoint, ${how}`, async () => {
      h = await webhookHarness({ ...FROZEN, ...(concurrency ? { webhookConcurrency: concurrency } : {}) });
      const receiver = await h.receiver();
      await h.addWebhook(receiver);
      const emitted: [string, string][] = [];
      for (const type of ['contract.created', 'contract.sent'] as const)
        h.t.sandbox.services.bus.on(type, (e: ContractEvent) => emitted.push([e.data.contractKey, e.id]));
      const keys = await Promise.all(Array.from({ length: 15 }, (_, i) => h.createContract({ send: i % 2 === 0 })));
      for (const contractKey of keys) {
        const e = h.emit('contract.signed', { contractKey, recipientKey: 'r', status: 'Signed' });
        emitted.push([contractKey, e.id]);
      }
      await h.settled();
      const received: [string, string][] = receiver.deliveries.map((d) => [d.payload.data.contractKey, d.id]);
      expect(received).toHaveLength(15 + 8 + 15);
      if (concurrency === 1) expect(received).toEqual(emitted);
      else expect(byContract(received)).toEqual(byContract(emitted));
    });
  }

  for (const concurrency of [undefined, 1]) {
    const most = concurrency ?? 8;
    it(`has at most ${most} first attempt${most === 1 ? '' : 's'} in flight to one endpoint, never two of one contract, when the receiver is slow`, async () => {
      h = await webhookHarness({ ...FROZEN, ...(concurrency ? { webhookConcurrency: concurrency } : {}) });
      let inFlight = 0;
      let highest = 0;
      const open = new Map<string, number>();
      let sameContractAtOnce = false;
      const arrived: [string, string][] = [];
      const slow = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const { contractKey } = JSON.parse(Buffer.concat(chunks).toString()).data;
          if ((open.get(contractKey) ?? 0) > 0) sameContractAtOnce = true;
          open.set(contractKey, (open.get(contractKey) ?? 0) + 1);
          inFlight++;
          highest = Math.max(highest, inFlight);
          arrived.push([contractKey, String(req.headers['webhook-id'])]);
          // Earlier requests are answered later than later ones would be, so sends out of turn would show up here.
          setTimeout(
            () => {
              inFlight--;
              open.set(contractKey, open.get(contractKey)! - 1);
              res.end('ok');
            },
            Math.max(1, 20 - arrived.length),
          );
        });
      });
      await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
      try {
        await h.addWebhook(`http://127.0.0.1:${(slow.address() as AddressInfo).port}/`, { created: true, sent: true });
        const emitted: [string, string][] = [];
        for (const type of ['contract.created', 'contract.sent'] as const)
          h.t.sandbox.services.bus.on(type, (e: ContractEvent) => emitted.push([e.data.contractKey, e.id]));
        await Promise.all(Array.from({ length: 12 }, () => h.createContract({ send: true })));
        await h.settled();
        expect(sameContractAtOnce).toBe(false);
        expect(highest).toBeLessThanOrEqual(most);
        if (most === 1) expect(arrived).toEqual(emitted);
        else expect(byContract(arrived)).toEqual(byContract(emitted));
      } finally {
        slow.closeAllConnections();
        await new Promise((resolve) => slow.close(resolve));
      }
    });
  }

  it('does not let a failing delivery hold back newer events to the same endpoint', async () => {
    h = await webhookHarness(FROZEN);
    const receiver = await h.receiver();
    await h.addWebhook(receiver, { created: true });
    receiver.failNext(1, { status: 500 });
    const first = await h.createContract();
    const second = await h.createContract();
    await h.settled();
    expect(receiver.deliveries.map((d) => [d.payload.data.contractKey, d.answeredStatus])).toEqual([
      [first, 500],
      [second, 200],
    ]);
    const log = await h.deliveries();
    expect(log.map((d: any) => d.status)).toEqual(['pending', 'delivered']);
  });
});

describe('the delivery log', () => {
  it('filters by webhookKey, event and status', async () => {
    h = await webhookHarness(FROZEN);
    const a = await h.receiver();
    const b = await h.receiver();
    const wa = await h.addWebhook(a, { created: true, sent: true });
    const wb = await h.addWebhook(b, { created: true });
    b.failNext(1);
    await h.createContract({ send: true });
    await h.settled();
    expect((await h.deliveries()).length).toBe(3);
    expect((await h.deliveries(`?webhookKey=${wa.webhookKey}`)).map((d: any) => d.event)).toEqual([
      'contract.created',
      'contract.sent',
    ]);
    expect((await h.deliveries('?event=contract.sent')).map((d: any) => d.webhookKey)).toEqual([wa.webhookKey]);
    expect((await h.deliveries('?status=pending')).map((d: any) => d.webhookKey)).toEqual([wb.webhookKey]);
    expect(await h.deliveries(`?webhookKey=${wb.webhookKey}&status=delivered`)).toEqual([]);
  });

  it.each([
    ['status=done', 'status'],
    ['event=contract.exploded', 'event'],
  ])('refuses an unknown filter value (%s) with a 400 naming the field', async (query, field) => {
    h = await webhookHarness(FROZEN);
    const res = await h.t.control(`/webhook-deliveries?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual([field]);
  });

  it('answers one delivery by id, and 404 for an unknown one', async () => {
    h = await webhookHarness(FROZEN);
    const receiver = await h.receiver();
    await h.addWebhook(receiver, { created: true });
    await h.createContract();
    await h.settled();
    const [d] = await h.deliveries();
    expect((await h.t.control(`/webhook-deliveries/${d.id}`)).body).toEqual(d);
    expect((await h.t.control('/webhook-deliveries/dlv_nope')).status).toBe(404);
  });

  it('keeps at most webhookLogLimit deliveries, dropping the oldest finished ones first', async () => {
    h = await webhookHarness({ ...FROZEN, webhookLogLimit: 3 });
    const receiver = await h.receiver();
    await h.addWebhook(receiver, { created: true });
    receiver.failNext(1);
    const keys: string[] = [];
    for (let i = 0; i < 5; i++) {
      keys.push(await h.createContract());
      await h.settled();
    }
    const log = await h.deliveries();
    // The first delivery is still pending (its retry is due), so it outlives newer finished ones.
    expect(log.map((d: any) => d.contractKey)).toEqual([keys[0], keys[3], keys[4]]);
  });

  it('records the cause of the event, so scenario-made deliveries can be told apart', async () => {
    h = await webhookHarness(FROZEN);
    const receiver = await h.receiver();
    await h.addWebhook(receiver, { signed: true });
    h.emit('contract.signed', { contractKey: 'c1', recipientKey: 'r1', status: 'Signed' }, 'scenario:happy:sign');
    await h.settled();
    expect((await h.deliveries())[0].cause).toBe('scenario:happy:sign');
  });

  it('is cleared by a reset, pending retries included', async () => {
    h = await webhookHarness(FROZEN);
    const receiver = await h.receiver();
    await h.addWebhook(receiver, { created: true });
    receiver.failNext(1);
    await h.createContract();
    await h.settled();
    expect((await h.deliveries()).length).toBe(1);
    expect((await h.t.control('/reset', {})).status).toBe(200);
    expect(await h.deliveries()).toEqual([]);
    await h.advance(60_000);
    expect(receiver.deliveries).toHaveLength(1);
  });
});

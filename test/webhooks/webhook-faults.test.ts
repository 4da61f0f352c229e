/**
 * Receiver faults (docs/webhooks.md, "Receiver faults"): deliveries that test the receiver's handler. Each kind end
 * to end, on the rig of test/support/receiver-fault-rig.ts (a real port, a real verifying receiver).
 */
import { describe, expect, it } from 'vitest';
import { monotonicNow, wallNow } from '../../src/core/wall-time.js';
import { START, receiverFaultRig } from '../support/receiver-fault-rig.js';

const rig = receiverFaultRig();

describe('bad-signature', () => {
  it.each([
    ['wrong-secret', 'signed with a wrong secret'],
    ['corrupted', 'signature corrupted'],
    ['missing', 'sent without a webhook-signature header'],
  ] as const)(
    '(%s) is rejected by the receiver; the retry is signed correctly and accepted',
    async (signature, detail) => {
      const { receiver, api, webhooks, settle } = await rig.setUp();
      const id = webhooks.faults.add({ kind: 'bad-signature', signature, times: 1 })[0]!;
      const contractKey = await api.createContract();
      await settle();
      expect(receiver.seen.map((s) => [s.contractKey, s.verified, s.answered])).toEqual([[contractKey, false, 401]]);
      await rig.running.clock.advance('5s');
      expect(receiver.seen.map((s) => [s.verified, s.answered])).toEqual([
        [false, 401],
        [true, 200],
      ]);
      expect(receiver.seen[0]!.id).toBe(receiver.seen[1]!.id);
      const [d] = webhooks.deliveries();
      expect(d!.status).toBe('delivered');
      expect(d!.attempts.map((a) => [a.trigger, a.statusCode, a.faults])).toEqual([
        ['first', 401, [{ id, kind: 'bad-signature', source: 'control', detail }]],
        ['retry', 200, undefined],
      ]);
      expect(webhooks.faults.list()).toEqual([
        expect.objectContaining({ id, kind: 'bad-signature', signature, seen: 1, hits: 1, exhausted: true }),
      ]);
    },
  );

  it('without times, hits every attempt (retries and redeliveries included) until removed', async () => {
    const { receiver, api, webhooks, settle } = await rig.setUp();
    const id = webhooks.faults.add({ kind: 'bad-signature' })[0]!;
    await api.createContract();
    await settle();
    await rig.running.clock.advance('5s');
    const [d] = webhooks.deliveries();
    expect(await webhooks.redeliver(d!.id)).toMatchObject({ status: 'pending' });
    expect(receiver.seen.map((s) => s.answered)).toEqual([401, 401, 401]);
    webhooks.faults.remove(id);
    expect(() => webhooks.faults.remove(id)).toThrow(`No receiver fault with id "${id}"`);
    await rig.running.clock.advance('5m');
    expect(receiver.seen.map((s) => s.answered)).toEqual([401, 401, 401, 200]);
    expect(webhooks.deliveries()[0]!.attempts.map((a) => [a.trigger, a.faults?.[0]?.kind])).toEqual([
      ['first', 'bad-signature'],
      ['retry', 'bad-signature'],
      ['redeliver', 'bad-signature'],
      ['retry', undefined],
    ]);
  });
});

describe('stale-timestamp', () => {
  it('signs correctly over a timestamp 10 minutes old by default: refused as too old, logged with the signed time', async () => {
    const { receiver, api, webhooks, settle } = await rig.setUp();
    const id = webhooks.faults.add({ kind: 'stale-timestamp', times: 1 })[0]!;
    const before = Math.floor(wallNow() / 1000);
    await api.createContract();
    await settle();
    const after = Math.floor(wallNow() / 1000);
    expect(receiver.seen).toHaveLength(1);
    expect(receiver.seen[0]).toMatchObject({
      verified: false,
      answered: 401,
      error: expect.stringMatching(/too old/i),
    });
    expect(receiver.seen[0]!.timestamp).toBeGreaterThanOrEqual(before - 600);
    expect(receiver.seen[0]!.timestamp).toBeLessThanOrEqual(after - 600);
    const [attempt] = webhooks.deliveries()[0]!.attempts;
    expect(attempt).toMatchObject({
      at: START,
      webhookTimestamp: receiver.seen[0]!.timestamp,
      statusCode: 401,
      faults: [
        {
          id,
          kind: 'stale-timestamp',
          source: 'control',
          detail: 'signed with a webhook-timestamp 600 s before wall time',
        },
      ],
    });
    await rig.running.clock.advance('5s');
    expect(receiver.seen[1]).toMatchObject({ verified: true, answered: 200 });
    expect(webhooks.deliveries()[0]!.status).toBe('delivered');
  });

  it('takes its age: inside the verifiers’ 5-minute tolerance it is still accepted', async () => {
    const { receiver, api, webhooks, settle } = await rig.setUp();
    webhooks.faults.add({ kind: 'stale-timestamp', age: '4m', times: 1 })[0]!;
    await api.createContract();
    await settle();
    expect(receiver.seen.map((s) => [s.verified, s.answered])).toEqual([[true, 200]]);
    expect(Math.floor(wallNow() / 1000) - receiver.seen[0]!.timestamp).toBeGreaterThanOrEqual(240);
  });
});

describe('duplicate', () => {
  it('delivers the same webhook-id and body twice; the receiver sees both', async () => {
    const { receiver, api, webhooks, settle } = await rig.setUp({ created: true, sent: true });
    const id = webhooks.faults.add({ kind: 'duplicate', match: { event: 'contract.created' } })[0]!;
    await api.createContract(true);
    await settle();
    expect(receiver.seen.map((s) => [s.type, s.verified, s.answered])).toEqual([
      ['contract.created', true, 200],
      ['contract.created', true, 200],
      ['contract.sent', true, 200],
    ]);
    expect(receiver.seen[1]!.id).toBe(receiver.seen[0]!.id);
    expect(receiver.seen[1]!.body).toBe(receiver.seen[0]!.body);
    const [created, sent] = webhooks.deliveries();
    expect(created!.status).toBe('delivered');
    expect(created!.attempts.map((a) => [a.trigger, a.statusCode, a.faults])).toEqual([
      ['first', 200, undefined],
      [
        'duplicate',
        200,
        [
          {
            id,
            kind: 'duplicate',
            source: 'control',
            detail: 'the same webhook-id and body sent again right after the first attempt',
          },
        ],
      ],
    ]);
    expect(sent!.attempts).toHaveLength(1);
  });
});

describe('out-of-order', () => {
  it('holds a matching delivery and sends it after the next one about the same contract', async () => {
    const { receiver, api, webhooks, settle } = await rig.setUp({ created: true, sent: true });
    const id = webhooks.faults.add({ kind: 'out-of-order', match: { event: 'contract.created' }, times: 1 })[0]!;
    const contractKey = await api.createContract(true);
    await settle();
    expect(receiver.seen.map((s) => [s.type, s.contractKey, s.verified])).toEqual([
      ['contract.sent', contractKey, true],
      ['contract.created', contractKey, true],
    ]);
    const [created, sent] = webhooks.deliveries();
    expect(created!.status).toBe('delivered');
    expect(created!.attempts).toEqual([
      expect.objectContaining({
        trigger: 'first',
        statusCode: 200,
        faults: [
          { id, kind: 'out-of-order', source: 'control', detail: `held back, sent after ${sent!.id} (contract.sent)` },
        ],
      }),
    ]);
    expect(created).not.toHaveProperty('held');
    expect(sent!.attempts[0]).not.toHaveProperty('faults');
    // `times: 1` is used up: the next contract's events arrive in order.
    await api.createContract(true);
    await settle();
    expect(receiver.seen.slice(2).map((s) => s.type)).toEqual(['contract.created', 'contract.sent']);
  });

  it('sends a held delivery anyway once holdFor (sandbox time) has passed with nothing to overtake it', async () => {
    const { receiver, api, webhooks, settle } = await rig.setUp({ created: true });
    const id = webhooks.faults.add({ kind: 'out-of-order', holdFor: '2m' })[0]!;
    await api.createContract();
    await settle();
    expect(receiver.seen).toEqual([]);
    expect(webhooks.deliveries()[0]).toMatchObject({
      status: 'pending',
      attempts: [],
      held: { faultId: id, until: '2026-03-01T09:02:00.000Z' },
    });
    await rig.running.clock.advance('119s');
    expect(receiver.seen).toEqual([]);
    await rig.running.clock.advance('1s');
    expect(receiver.seen.map((s) => [s.type, s.verified])).toEqual([['contract.created', true]]);
    const [d] = webhooks.deliveries();
    expect(d).toMatchObject({
      status: 'delivered',
      attempts: [
        {
          at: '2026-03-01T09:02:00.000Z',
          faults: [{ id, kind: 'out-of-order', detail: expect.stringMatching(/nothing overtook it/) }],
        },
      ],
    });
    expect(d).not.toHaveProperty('held');
  });

  it('lets only the same contract overtake by default; sameContract: false lets any next delivery do it', async () => {
    const { receiver, api, webhooks, settle } = await rig.setUp({ created: true });
    webhooks.faults.add({ kind: 'out-of-order', times: 1, sameContract: false })[0]!;
    const first = await api.createContract();
    await settle();
    const second = await api.createContract();
    await settle();
    expect(receiver.seen.map((s) => s.contractKey)).toEqual([second, first]);
  });
});

describe('reordering across contracts (out-of-order, sameContract: false)', () => {
  it('while the fault is set, each held delivery is overtaken by the next one to the endpoint, of another contract', async () => {
    const { receiver, api, webhooks, settle } = await rig.setUp({ created: true });
    const [id] = webhooks.faults.add({ kind: 'out-of-order', sameContract: false, holdFor: '5m' });
    const keys: string[] = [];
    for (let i = 0; i < 4; i++) {
      keys.push(await api.createContract());
      await settle();
    }
    // Swapped in pairs: the first is held, the second (another contract) goes out and releases it; and so on.
    expect(receiver.seen.map((s) => keys.indexOf(s.contractKey!))).toEqual([1, 0, 3, 2]);
    expect(webhooks.faults.list()).toEqual([expect.objectContaining({ id, hits: 2 })]);
  });
});

describe('slow', () => {
  it('sends the first attempt a real-time delay late; later events to that endpoint wait behind it, in order', async () => {
    const { receiver, api, webhooks, settle } = await rig.setUp({ created: true, sent: true });
    const id = webhooks.faults.add({ kind: 'slow', delay: '400ms', match: { event: 'contract.created' } })[0]!;
    const started = monotonicNow();
    await api.createContract(true);
    const answeredAt = monotonicNow();
    await settle(); // clock.advance waits for the delayed attempt
    // The API does not wait for the receiver: its answer came before the delayed attempt arrived.
    expect(receiver.seen[0]!.arrivedAt).toBeGreaterThan(answeredAt);
    expect(receiver.seen.map((s) => [s.type, s.verified, s.answered])).toEqual([
      ['contract.created', true, 200],
      ['contract.sent', true, 200],
    ]);
    expect(receiver.seen[0]!.arrivedAt - started).toBeGreaterThanOrEqual(390);
    const [created, sent] = webhooks.deliveries();
    expect(created!.attempts).toEqual([
      expect.objectContaining({
        trigger: 'first',
        statusCode: 200,
        delayMs: 400,
        faults: [{ id, kind: 'slow', source: 'control', detail: 'first attempt sent 400 ms (real time) late' }],
      }),
    ]);
    expect(sent!.attempts[0]).not.toHaveProperty('delayMs');
  });

  it('delays only first attempts: retries go out on time', async () => {
    const { receiver, api, webhooks, settle } = await rig.setUp({ created: true });
    webhooks.faults.add({ kind: 'slow', delay: 0.3 })[0]!;
    receiver.failNext(1);
    await api.createContract();
    await settle();
    const beforeRetry = monotonicNow();
    await rig.running.clock.advance('5s');
    expect(monotonicNow() - beforeRetry).toBeLessThan(250);
    expect(webhooks.deliveries()[0]!.attempts.map((a) => [a.trigger, a.statusCode, a.delayMs])).toEqual([
      ['first', 500, 300],
      ['retry', 200, undefined],
    ]);
  });
});

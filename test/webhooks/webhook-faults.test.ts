/**
 * Receiver faults (issue 15 §2): deliveries that test the receiver's handler. Each kind end to end: a sandbox
 * started with startSandbox() on a real port, driven through its public API, faults added through the control
 * operations the library calls (`running.sandbox.control.webhooks`, synchronous), and a real receiver verifying
 * with `standardwebhooks` unmodified.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { monotonicNow, wallNow } from '../../src/core/clock.js';
import { ApiError } from '../../src/core/errors.js';
import { type RunningSandbox, startSandbox } from '../../src/index.js';
import { receiverFaultSpec } from '../../src/webhooks/receiver-fault-spec.js';
import { type ProductionReceiver, productionReceiver, publicApi } from '../support/webhook-support.js';

const START = '2026-03-01T09:00:00.000Z';

let running: RunningSandbox | undefined;
const receivers: ProductionReceiver[] = [];
afterEach(async () => {
  await running?.close();
  running = undefined;
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function setUp(flags: Parameters<ReturnType<typeof publicApi>['addWebhook']>[1] = { created: true }) {
  running = await startSandbox({ clock: 'frozen', start: START });
  const receiver = await productionReceiver();
  receivers.push(receiver);
  const api = publicApi(running);
  const { webhookKey } = await api.addWebhook(receiver, flags);
  const webhooks = running.sandbox.control.webhooks;
  /** Lets the attempts started by the last API call finish (the clock stands still). */
  const settle = () => running!.clock.advance('0s');
  return { running, receiver, api, webhookKey, webhooks, settle };
}

describe('bad-signature', () => {
  it.each([
    ['wrong-secret', 'signed with a wrong secret'],
    ['corrupted', 'signature corrupted'],
    ['missing', 'sent without a webhook-signature header'],
  ] as const)(
    '(%s) is rejected by the receiver; the retry is signed correctly and accepted',
    async (signature, detail) => {
      const { receiver, api, webhooks, settle } = await setUp();
      const id = webhooks.faults.add({ kind: 'bad-signature', signature, times: 1 })[0]!;
      const contractKey = await api.createContract();
      await settle();
      expect(receiver.seen.map((s) => [s.contractKey, s.verified, s.answered])).toEqual([[contractKey, false, 401]]);
      await running!.clock.advance('5s');
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
    const { receiver, api, webhooks, settle } = await setUp();
    const id = webhooks.faults.add({ kind: 'bad-signature' })[0]!;
    await api.createContract();
    await settle();
    await running!.clock.advance('5s');
    const [d] = webhooks.deliveries();
    expect(await webhooks.redeliver(d!.id)).toMatchObject({ status: 'pending' });
    expect(receiver.seen.map((s) => s.answered)).toEqual([401, 401, 401]);
    webhooks.faults.remove(id);
    expect(() => webhooks.faults.remove(id)).toThrow(`No receiver fault with id "${id}"`);
    await running!.clock.advance('5m');
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
    const { receiver, api, webhooks, settle } = await setUp();
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
    await running!.clock.advance('5s');
    expect(receiver.seen[1]).toMatchObject({ verified: true, answered: 200 });
    expect(webhooks.deliveries()[0]!.status).toBe('delivered');
  });

  it('takes its age: inside the verifiers’ 5-minute tolerance it is still accepted', async () => {
    const { receiver, api, webhooks, settle } = await setUp();
    webhooks.faults.add({ kind: 'stale-timestamp', age: '4m', times: 1 })[0]!;
    await api.createContract();
    await settle();
    expect(receiver.seen.map((s) => [s.verified, s.answered])).toEqual([[true, 200]]);
    expect(Math.floor(wallNow() / 1000) - receiver.seen[0]!.timestamp).toBeGreaterThanOrEqual(240);
  });
});

describe('duplicate', () => {
  it('delivers the same webhook-id and body twice; the receiver sees both', async () => {
    const { receiver, api, webhooks, settle } = await setUp({ created: true, sent: true });
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
    const { receiver, api, webhooks, settle } = await setUp({ created: true, sent: true });
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
    const { receiver, api, webhooks, settle } = await setUp({ created: true });
    const id = webhooks.faults.add({ kind: 'out-of-order', holdFor: '2m' })[0]!;
    await api.createContract();
    await settle();
    expect(receiver.seen).toEqual([]);
    expect(webhooks.deliveries()[0]).toMatchObject({
      status: 'pending',
      attempts: [],
      held: { faultId: id, until: '2026-03-01T09:02:00.000Z' },
    });
    await running!.clock.advance('119s');
    expect(receiver.seen).toEqual([]);
    await running!.clock.advance('1s');
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
    const { receiver, api, webhooks, settle } = await setUp({ created: true });
    webhooks.faults.add({ kind: 'out-of-order', times: 1, sameContract: false })[0]!;
    const first = await api.createContract();
    await settle();
    const second = await api.createContract();
    await settle();
    expect(receiver.seen.map((s) => s.contractKey)).toEqual([second, first]);
  });
});

describe('slow', () => {
  it('sends the first attempt a real-time delay late; later events to that endpoint wait behind it, in order', async () => {
    const { receiver, api, webhooks, settle } = await setUp({ created: true, sent: true });
    const id = webhooks.faults.add({ kind: 'slow', delay: '400ms', match: { event: 'contract.created' } })[0]!;
    const started = monotonicNow();
    await api.createContract(true);
    const answeredAfter = monotonicNow() - started;
    expect(answeredAfter).toBeLessThan(350); // the API does not wait for the receiver
    await settle(); // clock.advance waits for the delayed attempt
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
    const { receiver, api, webhooks, settle } = await setUp({ created: true });
    webhooks.faults.add({ kind: 'slow', delay: 0.3 })[0]!;
    receiver.failNext(1);
    await api.createContract();
    await settle();
    const beforeRetry = monotonicNow();
    await running!.clock.advance('5s');
    expect(monotonicNow() - beforeRetry).toBeLessThan(250);
    expect(webhooks.deliveries()[0]!.attempts.map((a) => [a.trigger, a.statusCode, a.delayMs])).toEqual([
      ['first', 500, 300],
      ['retry', 200, undefined],
    ]);
  });
});

describe('managing receiver faults', () => {
  it('matches on webhookKey, url, clientKey, contractKey and event; counts seen and hits', async () => {
    const { receiver, api, webhooks, webhookKey, settle } = await setUp({ created: true, sent: true });
    const other = webhooks.faults.add({ kind: 'bad-signature', match: { webhookKey: 'nope' } })[0]!;
    const byClient = webhooks.faults.add({
      kind: 'duplicate',
      match: { clientKey: running!.clientKey, url: receiver.url, webhookKey, event: ['contract.sent'] },
    })[0]!;
    await api.createContract(true);
    await settle();
    expect(receiver.seen.map((s) => [s.type, s.answered])).toEqual([
      ['contract.created', 200],
      ['contract.sent', 200],
      ['contract.sent', 200],
    ]);
    expect(webhooks.faults.list().map((f) => [f.id, f.seen, f.hits])).toEqual([
      [other, 0, 0],
      [byClient, 1, 1],
    ]);
    // contractKey: only the named contract's deliveries.
    const [createdFirst] = webhooks.deliveries({ event: 'contract.created' });
    const byContract = webhooks.faults.add({
      kind: 'bad-signature',
      match: { contractKey: createdFirst!.contractKey },
    })[0]!;
    await api.createContract();
    await settle();
    await webhooks.redeliver(createdFirst!.id);
    expect(receiver.seen.slice(3).map((s) => [s.contractKey, s.answered])).toEqual([
      [expect.not.stringMatching(createdFirst!.contractKey), 200],
      [createdFirst!.contractKey, 401],
    ]);
    expect(webhooks.faults.list().find((f) => f.id === byContract)).toMatchObject({ seen: 1, hits: 1 });
  });

  it('draws probability from a seeded source: the same spec hits the same deliveries on every run', async () => {
    const runOnce = async () => {
      const { receiver, api, webhooks, settle } = await setUp({ created: true });
      webhooks.faults.add({ id: 'coin', kind: 'bad-signature', probability: 0.5 })[0]!;
      for (let i = 0; i < 12; i++) await api.createContract();
      await settle();
      const pattern = receiver.seen.map((s) => s.answered);
      await running!.close();
      running = undefined;
      return pattern;
    };
    const first = await runOnce();
    expect(first).toContain(401);
    expect(first).toContain(200);
    expect(await runOnce()).toEqual(first);
  });

  it('are listed with their defaults, removed by source, and cleared by a reset', async () => {
    const { webhooks } = await setUp();
    const a = webhooks.faults.add({ kind: 'stale-timestamp' })[0]!;
    const b = webhooks.faults.add({ id: 'mine', kind: 'out-of-order' }, 'scenario:flaky')[0]!;
    webhooks.faults.add({ kind: 'slow', delay: '1s' }, 'scenario:flaky')[0]!;
    expect(webhooks.faults.list()).toEqual([
      { id: a, source: 'control', kind: 'stale-timestamp', match: {}, age: '10m', seen: 0, hits: 0, exhausted: false },
      {
        id: b,
        source: 'scenario:flaky',
        kind: 'out-of-order',
        match: {},
        sameContract: true,
        holdFor: '1m',
        seen: 0,
        hits: 0,
        exhausted: false,
      },
      expect.objectContaining({ kind: 'slow', delay: '1s' }),
    ]);
    expect(b).toBe('mine');
    expect(webhooks.faults.clear('scenario:flaky')).toBe(2);
    expect(webhooks.faults.list().map((f) => f.id)).toEqual([a]);
    webhooks.faults.add({ kind: 'duplicate' })[0]!;
    await running!.reset();
    expect(webhooks.faults.list()).toEqual([]);
    webhooks.faults.add({ kind: 'duplicate' })[0]!;
    expect(webhooks.faults.clear()).toBe(1);
  });

  it('a reset also releases nothing held: held deliveries go with the log', async () => {
    const { receiver, api, webhooks, settle } = await setUp({ created: true });
    webhooks.faults.add({ kind: 'out-of-order' })[0]!;
    await api.createContract();
    await settle();
    expect(webhooks.deliveries()[0]!.held).toBeDefined();
    await running!.reset();
    await running!.clock.advance('1h');
    expect(receiver.seen).toEqual([]);
    expect(webhooks.deliveries()).toEqual([]);
  });

  it('refuses a wrong spec with a 400 naming the field, and a taken id with a 409', async () => {
    const { webhooks } = await setUp();
    const refusal = (spec: unknown) => {
      try {
        webhooks.faults.add(spec as never)[0]!;
      } catch (error) {
        expect(error).toBeInstanceOf(ApiError);
        return [(error as ApiError).status, (error as ApiError).errors?.map((e) => e.path)];
      }
      return 'accepted';
    };
    expect(refusal({ kind: 'teleport' })).toEqual([400, ['kind']]);
    expect(refusal({ kind: 'slow' })).toEqual([400, ['delay']]);
    expect(refusal({ kind: 'slow', delay: '11m' })).toEqual([400, ['delay']]);
    expect(refusal({ kind: 'stale-timestamp', age: 'soon' })).toEqual([400, ['age']]);
    expect(refusal({ kind: 'duplicate', match: { event: 'contract.exploded' } })).toEqual([400, ['match.event']]);
    expect(refusal({ kind: 'duplicate', match: { color: 'red' } })).toEqual([400, ['match']]);
    expect(refusal({ kind: 'duplicate', times: 0 })).toEqual([400, ['times']]);
    expect(refusal({ kind: 'bad-signature', signature: 'smudged' })).toEqual([400, ['signature']]);
    // A key the kind does not take: the whole spec is at fault, named `(body)` as in every control refusal.
    expect(refusal({ kind: 'duplicate', delay: '1s' })).toEqual([400, ['(body)']]);
    webhooks.faults.add({ id: 'x', kind: 'duplicate' })[0]!;
    expect(refusal({ id: 'x', kind: 'duplicate' })).toEqual([409, undefined]);
    // The schema is exported for the control API and scenarios.
    expect(
      receiverFaultSpec().safeParse({ kind: 'slow', delay: '2s', match: { event: 'contract.signed' } }).success,
    ).toBe(true);
  });
});

describe('receiver faults through the control API and scenarios', () => {
  it('are set, listed and removed at /__sandbox/webhook-faults, and a bad spec is refused naming the field', async () => {
    const { receiver, api, settle } = await setUp();
    const post = (body: unknown) =>
      fetch(`${running!.url}/__sandbox/webhook-faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const bad = await post({ kind: 'slow' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain('delay');
    const added = await post({ faults: [{ id: 'dup', kind: 'duplicate', times: 1 }] });
    expect(added.status).toBe(201);
    expect(await added.json()).toMatchObject({
      ids: ['dup'],
      faults: [{ id: 'dup', kind: 'duplicate', source: 'control' }],
    });
    await api.createContract();
    await settle();
    expect(receiver.seen.map((s) => s.answered)).toEqual([200, 200]);
    expect(receiver.seen[0]!.id).toBe(receiver.seen[1]!.id);
    const listed = await (await fetch(`${running!.url}/__sandbox/webhook-faults`)).json();
    expect(listed).toMatchObject({ faults: [{ id: 'dup', hits: 1, exhausted: true }] });
    expect((await fetch(`${running!.url}/__sandbox/webhook-faults/dup`, { method: 'DELETE' })).status).toBe(200);
    const gone = await fetch(`${running!.url}/__sandbox/webhook-faults/dup`, { method: 'DELETE' });
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as { message: string }).message).toBe('No receiver fault with id "dup"');
  });

  it('the bundled bad-webhook-day scenario spoils the first delivery with a bad signature, and unloading removes its faults', async () => {
    const { receiver, api, settle } = await setUp();
    const summary = await running!.scenarios.load('bad-webhook-day');
    expect(summary.receiverFaults).toEqual([
      'bad-webhook-day:bad-signature',
      'bad-webhook-day:duplicate-signed',
      'bad-webhook-day:sent-late',
    ]);
    await api.createContract();
    await settle();
    expect(receiver.seen.map((s) => [s.verified, s.answered])).toEqual([[false, 401]]);
    await running!.clock.advance('5s');
    expect(receiver.seen.map((s) => [s.verified, s.answered])).toEqual([
      [false, 401],
      [true, 200],
    ]);
    expect(running!.sandbox.control.webhooks.deliveries()[0]!.attempts[0]!.faults).toEqual([
      expect.objectContaining({
        id: 'bad-webhook-day:bad-signature',
        kind: 'bad-signature',
        source: 'scenario:bad-webhook-day',
      }),
    ]);
    await running!.scenarios.unload('bad-webhook-day');
    expect(running!.sandbox.control.webhooks.faults.list()).toEqual([]);
  });
});

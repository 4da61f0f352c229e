/**
 * Receiver faults managed (docs/webhooks.md, "Receiver faults"): matching, seeded probabilities, listing, removal,
 * resets, refusals, and the same operations through the control API and scenarios, on the rig of
 * test/support/receiver-fault-rig.ts.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/core/errors.js';
import { receiverFaultSpec } from '../../src/webhooks/receiver-fault-spec.js';
import { receiverFaultRig } from '../support/receiver-fault-rig.js';

const rig = receiverFaultRig();

describe('managing receiver faults', () => {
  it('matches on webhookKey, url, clientKey, contractKey and event; counts seen and hits', async () => {
    const { receiver, api, webhooks, webhookKey, settle } = await rig.setUp({ created: true, sent: true });
    const other = webhooks.faults.add({ kind: 'bad-signature', match: { webhookKey: 'nope' } })[0]!;
    const byClient = webhooks.faults.add({
      kind: 'duplicate',
      match: { clientKey: rig.running.clientKey, url: receiver.url, webhookKey, event: ['contract.sent'] },
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
      const { receiver, api, webhooks, settle } = await rig.setUp({ created: true });
      webhooks.faults.add({ id: 'coin', kind: 'bad-signature', probability: 0.5 })[0]!;
      for (let i = 0; i < 12; i++) await api.createContract();
      await settle();
      const pattern = receiver.seen.map((s) => s.answered);
      await rig.closeRunning();
      return pattern;
    };
    const first = await runOnce();
    expect(first).toContain(401);
    expect(first).toContain(200);
    expect(await runOnce()).toEqual(first);
  });

  it('are listed with their defaults, removed by source, and cleared by a reset', async () => {
    const { webhooks } = await rig.setUp();
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
    await rig.running.reset();
    expect(webhooks.faults.list()).toEqual([]);
    webhooks.faults.add({ kind: 'duplicate' })[0]!;
    expect(webhooks.faults.clear()).toBe(1);
  });

  it('a reset also releases nothing held: held deliveries go with the log', async () => {
    const { receiver, api, webhooks, settle } = await rig.setUp({ created: true });
    webhooks.faults.add({ kind: 'out-of-order' })[0]!;
    await api.createContract();
    await settle();
    expect(webhooks.deliveries()[0]!.held).toBeDefined();
    await rig.running.reset();
    await rig.running.clock.advance('1h');
    expect(receiver.seen).toEqual([]);
    expect(webhooks.deliveries()).toEqual([]);
  });

  it('refuses a wrong spec with a 400 naming the field, and a taken id with a 409', async () => {
    const { webhooks } = await rig.setUp();
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
    const { receiver, api, settle } = await rig.setUp();
    const post = (body: unknown) =>
      fetch(`${rig.running.url}/__sandbox/webhook-faults`, {
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
    const listed = await (await fetch(`${rig.running.url}/__sandbox/webhook-faults`)).json();
    expect(listed).toMatchObject({ faults: [{ id: 'dup', hits: 1, exhausted: true }] });
    expect((await fetch(`${rig.running.url}/__sandbox/webhook-faults/dup`, { method: 'DELETE' })).status).toBe(200);
    const gone = await fetch(`${rig.running.url}/__sandbox/webhook-faults/dup`, { method: 'DELETE' });
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as { message: string }).message).toBe('No receiver fault with id "dup"');
  });

  it('the bundled bad-webhook-day scenario spoils the first delivery with a bad signature, and unloading removes its faults', async () => {
    const { receiver, api, settle } = await rig.setUp();
    const summary = await rig.running.scenarios.load('bad-webhook-day');
    expect(summary.receiverFaults).toEqual([
      'bad-webhook-day:bad-signature',
      'bad-webhook-day:duplicate-signed',
      'bad-webhook-day:sent-late',
    ]);
    await api.createContract();
    await settle();
    expect(receiver.seen.map((s) => [s.verified, s.answered])).toEqual([[false, 401]]);
    await rig.running.clock.advance('5s');
    expect(receiver.seen.map((s) => [s.verified, s.answered])).toEqual([
      [false, 401],
      [true, 200],
    ]);
    expect(rig.running.sandbox.control.webhooks.deliveries()[0]!.attempts[0]!.faults).toEqual([
      expect.objectContaining({
        id: 'bad-webhook-day:bad-signature',
        kind: 'bad-signature',
        source: 'scenario:bad-webhook-day',
      }),
    ]);
    await rig.running.scenarios.unload('bad-webhook-day');
    expect(rig.running.sandbox.control.webhooks.faults.list()).toEqual([]);
  });
});

/**
 * --data keeps what is in flight (docs/persistence.md, "What is kept"): pending deliveries and their retries, the
 * clocks, emails, the request journal, outages. In process: a sandbox on a data file is stopped, or "killed" (its
 * store let go once the flush window has passed, nothing more written), and a second one opens the same file.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataFileEachTest } from '../support/data-file.js';
import type { TestSandbox } from '../support/helpers.js';
import { LEASE_FOR_ANN_THEN_BOB } from '../support/scenario-kit.js';

const START = '2026-03-01T09:00:00.000Z';
const data = dataFileEachTest('esign-in-flight-');
const { sandbox, kill } = data;
const receiver = () => data.receiver({ rejectUnverified: false });

/** A webhook on every event to `url`, and a contract created: one `created` delivery. */
async function contractWithWebhook(t: TestSandbox, url: string): Promise<void> {
  const auth = { bearer: await t.clientToken() };
  const hook = await t.post('/api/webhook', { data: { action: 'create', webhooks: [{ url, created: true }] } }, auth);
  expect(hook.status).toBe(201);
  const made = await t.post(
    '/api/contract',
    { data: { action: 'create', contract: { name: 'Kept', value: '<p>x</p>' } } },
    auth,
  );
  expect(made.status).toBe(201);
}

async function deliveries(t: TestSandbox): Promise<any[]> {
  return (await t.control('/webhook-deliveries')).body.deliveries;
}

describe('a restart on the same data file', () => {
  for (const how of ['stopped', 'killed'] as const) {
    it(`goes on with a pending retry, its due time and webhook-id kept (${how})`, async () => {
      const r = await receiver();
      r.failNext(1, { status: 503 });
      const first = await sandbox();
      await contractWithWebhook(first, r.url);
      await first.sandbox.services.clocks.sandbox.work.settled();
      const [before] = await deliveries(first);
      expect(before.status).toBe('pending');
      expect(before.nextAttemptAt).toBe('2026-03-01T09:00:05.000Z');
      if (how === 'killed') await kill(first);
      else {
        await data.stop(first);
      }

      const second = await sandbox();
      expect((await second.control('/clock')).body.now).toBe(START);
      const [after] = await deliveries(second);
      expect(after).toMatchObject({ id: before.id, webhookId: before.webhookId, nextAttemptAt: before.nextAttemptAt });
      await second.control('/clock/advance', { by: '5s' });
      const [done] = await deliveries(second);
      expect(done.status).toBe('delivered');
      expect(done.attempts.map((a: any) => [a.trigger, a.at])).toEqual([
        ['first', START],
        ['retry', '2026-03-01T09:00:05.000Z'],
      ]);
      expect(r.deliveries.map((d) => d.id)).toEqual([before.webhookId, before.webhookId]);
      // Advancing further sends nothing again.
      await second.control('/clock/advance', { by: '1d' });
      expect(r.deliveries).toHaveLength(2);
    });
  }

  it('keeps a tenant clock, the journal, emails and a running outage', async () => {
    const first = await sandbox();
    const tenant = await first.control('/platforms', { clock: 'frozen', start: '2030-01-01T00:00:00.000Z' });
    expect(tenant.status).toBe(201);
    const apiKey = tenant.body.apiKey;
    await first.control(`/platforms/${apiKey}/clock/advance`, { by: '1h' });
    first.sandbox.control.webhooks.startOutage({ mode: { status: 503 } });
    const r = await receiver();
    await contractWithWebhook(first, r.url);
    await first.sandbox.services.clocks.sandbox.work.settled();
    const journalBefore = (await first.control('/requests')).body.requests.length;
    await kill(first);

    const second = await sandbox();
    expect((await second.control(`/platforms/${apiKey}/clock`)).body).toMatchObject({
      now: '2030-01-01T01:00:00.000Z',
      mode: 'frozen',
      own: true,
    });
    const journal = (await second.control('/requests')).body.requests;
    expect(journal.length).toBeGreaterThanOrEqual(journalBefore);
    expect(journal[0].id).toBeGreaterThan(0);
    expect(JSON.stringify(journal)).not.toContain(tenant.body.secret);
    // The outage still answers the retry: the receiver hears nothing.
    await second.control('/clock/advance', { by: '5s' });
    const [delivery] = await deliveries(second);
    expect(delivery.attempts.map((a: any) => a.statusCode)).toEqual([503, 503]);
    expect(r.deliveries).toHaveLength(0);
  });
  it('keeps API faults and receiver faults: their ids, counts, seeded draws and end', async () => {
    const first = await sandbox();
    const set = await first.control('/faults', {
      id: 'flaky',
      match: { path: '/api/contract' },
      status: 503,
      probability: 0.5,
      for: '1h',
    });
    expect(set.status).toBe(201);
    expect((await first.control('/webhook-faults', { kind: 'bad-signature', times: 3 })).status).toBe(201);
    const auth = { bearer: await first.clientToken() };
    const create = async (t: TestSandbox) =>
      (await t.post('/api/contract', { data: { action: 'create', contract: { name: 'F', value: '<p>x</p>' } } }, auth))
        .status;
    const before = [await create(first), await create(first), await create(first)];
    const faultsBefore = (await first.control('/faults')).body.faults;
    await kill(first);

    const second = await sandbox();
    expect((await second.control('/faults')).body.faults).toEqual(faultsBefore);
    expect((await second.control('/webhook-faults')).body.faults).toMatchObject([
      { id: 'rf_1', kind: 'bad-signature', times: 3, hits: 0 },
    ]);
    // Ids made up after the restart follow those made before it.
    expect((await second.control('/webhook-faults', { kind: 'duplicate' })).body.ids).toEqual(['rf_2']);
    const after = [await create(second), await create(second), await create(second)];
    await data.stop(second);

    // The same draws as a run that was never interrupted.
    data.fresh();
    const straight = await sandbox();
    await straight.control('/faults', {
      id: 'flaky',
      match: { path: '/api/contract' },
      status: 503,
      probability: 0.5,
      for: '1h',
    });
    const straightAuth = { bearer: await straight.clientToken() };
    const all: number[] = [];
    for (let i = 0; i < 6; i++)
      all.push(
        (
          await straight.post(
            '/api/contract',
            { data: { action: 'create', contract: { name: 'F', value: '<p>x</p>' } } },
            straightAuth,
          )
        ).status,
      );
    expect([...before, ...after]).toEqual(all);
    expect(all).toContain(503);
    expect(all).toContain(201);
  });

  it('ends a timed fault at its time after a restart, on the clock it was set on', async () => {
    const first = await sandbox();
    await first.control('/faults', { id: 'down', match: { path: '/api/contract' }, status: 503, for: '10m' });
    await first.control('/clock/advance', { by: '4m' });
    await kill(first);
    const second = await sandbox();
    expect((await second.control('/faults')).body.faults).toMatchObject([{ id: 'down' }]);
    await second.control('/clock/advance', { by: '5m' });
    expect((await second.control('/faults')).body.faults).toHaveLength(1);
    await second.control('/clock/advance', { by: '1m' });
    expect((await second.control('/faults')).body.faults).toEqual([]);
  });
});

describe('a loaded scenario across a restart', () => {
  /** Ann signs 10 minutes after she is sent the contract, Bob 2 hours after her; her signature sets off a reaction. */
  const SCENARIO = `
name: kept
recipients:
  - { id: ann-signs, match: { email: ann@example.com }, sign: 10m }
  - { id: bob-signs, match: { email: bob@example.com }, sign: 2h }
timeline:
  - { id: late-fault, at: 3h, addFaults: [{ id: late, match: { path: /api/nothing }, status: 503 }] }
  - id: on-ann
    when: { event: contract.signed, recipient: { position: 1 } }
    after: 30m
    webhookOutage: { id: down, for: 1h, status: 503 }
expect:
  - { id: created, request: { path: /api/contract, status: 2xx } }
  - { id: fully-signed, contract: { name: Lease, status: Fully signed }, by: 5h }
${LEASE_FOR_ANN_THEN_BOB}`;

  /** Loads it, makes a contract through /api, advances 20 minutes: Ann has signed, three timers are pending. */
  async function begin(t: TestSandbox): Promise<void> {
    expect((await t.control('/scenarios', { yaml: SCENARIO })).status).toBe(201);
    const auth = { bearer: await t.clientToken() };
    await t.post('/api/contract', { data: { action: 'create', contract: { name: 'Other', value: '<p>x</p>' } } }, auth);
    await t.control('/clock/advance', { by: '20m' });
  }

  async function finish(t: TestSandbox): Promise<any> {
    await t.control('/clock/advance', { by: '6h' });
    return (await t.control('/scenarios/kept')).body;
  }

  it('goes on with its timers, rule plans, reaction counts, outages, faults and expectations', async () => {
    const first = await sandbox({ seed: 7 });
    await begin(first);
    const before = (await first.control('/scenarios/kept')).body;
    expect(before.pendingTimers).toBe(3);
    expect(before.expectations.map((e: any) => e.status)).toEqual(['met', 'pending']);
    await kill(first);

    const second = await sandbox({ seed: 7 });
    expect((await second.control('/scenarios/kept')).body).toEqual(before);
    const done = await finish(second);
    expect(done.pendingTimers).toBe(0);
    expect(done.expectations.map((e: any) => e.status)).toEqual(['met', 'met']);
    expect(done.faults).toEqual(['kept:late']);
    // Each planned act and step ran once, at its time; the reaction (times: 1) did not run again.
    const ran = done.log
      .filter((l: any) => l.outcome === 'done')
      .map((l: any) => `${l.at.slice(11, 19)} ${l.what.split(' (')[0]}`);
    expect(ran.slice(1)).toEqual([
      '09:10:00 ann@example.com: sign',
      '09:40:00 webhookOutage: every webhook down',
      '11:10:00 bob@example.com: sign',
      '12:00:00 addFaults: fault(s) kept:late set',
    ]);
    await data.stop(second);

    // Exactly what a run without the restart ends with.
    data.fresh();
    const straight = await sandbox({ seed: 7 });
    await begin(straight);
    expect(await finish(straight)).toEqual(done);
  });

  it('is not loaded again by the same --scenario on a restart, and one given anew replaces it', async () => {
    const path = join(data.dir, 'kept.yaml');
    writeFileSync(path, SCENARIO);
    const first = await sandbox({ scenarios: [path] });
    await first.control('/clock/advance', { by: '20m' });
    const before = (await first.control('/scenarios/kept')).body;
    expect(before.pendingTimers).toBe(3);
    await kill(first);
    const second = await sandbox({ scenarios: [path] });
    expect((await second.control('/scenarios/kept')).body).toEqual(before);
    await kill(second);
    writeFileSync(path, SCENARIO.replace('sign: 2h', 'sign: 3h'));
    const third = await sandbox({ scenarios: [path] });
    const replaced = (await third.control('/scenarios/kept')).body;
    expect(replaced.loadedAt).toBe('2026-03-01T09:20:00.000Z');
    expect(replaced.pendingTimers).toBe(1);
  });

  it('is not loaded again on a restart when it is bound to a tenant by its tenant key either', async () => {
    const path = join(data.dir, 'ours.yaml');
    const steps = '  - { at: 1h, expireTokens: all }\n  - { at: 2h, expireTokens: all }\n';
    writeFileSync(path, `name: ours\ntenant: sandboxApiKey\ntimeline:\n${steps}`);
    const first = await sandbox({ scenarios: [path] });
    await first.control('/clock/advance', { by: '20m' });
    const before = (await first.control('/platforms/sandboxApiKey/scenarios/ours')).body;
    expect(before).toMatchObject({ apiKey: 'sandboxApiKey', loadedAt: START, pendingTimers: 2 });
    await kill(first);
    const second = await sandbox({ scenarios: [path] });
    expect((await second.control('/platforms/sandboxApiKey/scenarios/ours')).body).toEqual(before);
  });
});

describe('with --seed', () => {
  it('gives the keys a run without the restart would have given, never those of records already stored', async () => {
    const create = async (t: TestSandbox) => {
      const auth = { bearer: await t.clientToken() };
      const made = await t.post(
        '/api/contract',
        { data: { action: 'create', contract: { name: 'Seeded', value: '<p>x</p>' } } },
        auth,
      );
      return made.body.contract.contractKey as string;
    };
    const first = await sandbox({ seed: 7 });
    const before = await create(first);
    await kill(first);
    const restarted = await sandbox({ seed: 7 });
    const after = await create(restarted);
    await data.stop(restarted);

    data.fresh();
    const straight = await sandbox({ seed: 7 });
    expect(await create(straight)).toBe(before);
    expect(await create(straight)).toBe(after);
    expect(after).not.toBe(before);
  });
});

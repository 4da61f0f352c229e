/**
 * Reactions that cause reactions (docs/scenarios.md, "Reactions"): the reactions one thing sets off stop after 1,000,
 * whether they run at once or a delay at a time (a periodic step over a long advance), in a line or branching;
 * reactions that only share an instant are separate chains and all run. The clock gives the event loop a turn between slices of a long advance.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Clock } from '../../src/core/clock.js';
import type { BusEvent } from '../../src/core/events.js';
import { FROZEN, type TestSandbox, testSandbox } from '../support/helpers.js';

let t: TestSandbox;
let events: BusEvent[];
beforeEach(async () => {
  t = await testSandbox(FROZEN);
  events = [];
  t.sandbox.services.bus.onAny((e) => events.push(e));
});
afterEach(() => t.close());

async function load(yaml: string): Promise<void> {
  const answer = await t.request('/__sandbox/scenarios', {
    method: 'POST',
    headers: { 'content-type': 'application/yaml' },
    body: yaml,
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
}

const LEASE = [
  'data:',
  '  clients:',
  '    - clientKey: demoClient',
  '      contracts:',
  '        - { name: Lease, value: <p>x</p>, send: true, recipients: [{ email: a@example.com, action: sign }] }',
];

/** Loads the scenario `name` with these timeline steps, and the contract Lease it sends at load. */
const loadWithLease = (name: string, ...steps: string[]) =>
  load([`name: ${name}`, 'timeline:', ...steps, ...LEASE].join('\n'));

describe('a chain of reactions', () => {
  it('a periodic step (it sends again, and reacts to the send an hour later) runs 1,000 times over a 100-year advance, then stops with a failed line', async () => {
    await loadWithLease(
      'ticker',
      '  - { id: resend, when: contract.sent, after: 1h, times: every, sendContract: { contract: Lease } }',
    );
    const advanced = await t.control('/clock/advance', { by: `${100 * 365}d` });
    expect(advanced.status, JSON.stringify(advanced.body)).toBe(200);
    const resent = events.filter((e) => e.type === 'contract.sent' && e.cause === 'scenario:ticker:resend');
    expect(resent).toHaveLength(1000);
    const log = (await t.control('/scenarios/ticker')).body.log as { outcome: string; detail?: string }[];
    expect(log.filter((l) => l.outcome === 'failed').map((l) => l.detail)).toEqual([
      expect.stringMatching(/more than 1000 reactions set off by one thing/),
    ]);
  });

  it('a reaction that triggers itself at once stops after 1,000 too', async () => {
    await loadWithLease(
      'echo',
      '  - { id: again, when: contract.sent, times: every, sendContract: { contract: Lease } }',
    );
    const resent = events.filter((e) => e.type === 'contract.sent' && e.cause === 'scenario:echo:again');
    expect(resent).toHaveLength(1000);
  });

  it.each([
    ['at once', ''],
    ['an hour at a time, over a 100-year advance', ', after: 1h'],
  ])('reactions that branch (two to each send, each sending again) stop after 1,000 in all, %s', async (_, after) => {
    await loadWithLease(
      'fork',
      `  - { id: left, when: contract.sent, times: every${after}, sendContract: { contract: Lease } }`,
      `  - { id: right, when: contract.sent, times: every${after}, sendContract: { contract: Lease } }`,
    );
    expect((await t.control('/clock/advance', { by: `${100 * 365}d` })).status).toBe(200);
    const resent = events.filter(
      (e) => e.type === 'contract.sent' && (e.cause === 'scenario:fork:left' || e.cause === 'scenario:fork:right'),
    );
    expect(resent).toHaveLength(1000);
    const log = (await t.control('/scenarios/fork')).body.log as { outcome: string; detail?: string }[];
    expect(
      log.some((l) => l.outcome === 'failed' && /more than 1000 reactions set off by one thing/.test(l.detail!)),
    ).toBe(true);
  });

  it('a chain that feeds itself at once gives the event loop turns while it runs', async () => {
    let turned = false;
    const seen: boolean[] = [];
    t.sandbox.services.bus.onAny((e) => {
      if (e.type !== 'contract.sent' || e.cause !== 'scenario:echo:again') return;
      if (seen.length === 0) setImmediate(() => (turned = true));
      seen.push(turned);
    });
    await loadWithLease(
      'echo',
      '  - { id: again, when: contract.sent, times: every, sendContract: { contract: Lease } }',
    );
    await t.control('/clock/advance', { by: '1s' });
    expect(seen).toHaveLength(1000);
    expect(seen.at(-1)).toBe(true);
  });

  it('1,200 reactions to 1,200 things that happen in one advance are no chain: every one runs', async () => {
    await load(
      ['name: each', 'timeline:', '  - { id: each, when: token.created, times: every, clearFaults: true }'].join('\n'),
    );
    const { clocks, bus, store } = t.sandbox.services;
    const clock = clocks.sandbox;
    const platformId = store.platforms.all()[0]!.platformId;
    for (let i = 0; i < 1200; i++)
      clock.after(3_600_000, () => bus.emit({ type: 'token.created', platformId, kind: 'platform' }));
    expect((await t.control('/clock/advance', { by: '1h' })).status).toBe(200);
    const log = (await t.control('/scenarios/each')).body.log as { outcome: string; cause: string }[];
    expect(log.filter((l) => l.outcome === 'failed')).toEqual([]);
    expect(log.filter((l) => l.cause === 'scenario:each:each' && l.outcome === 'done')).toHaveLength(1200);
  });
});

describe('a long advance', () => {
  it('gives the event loop a turn between slices of timers', async () => {
    const clock = new Clock({ mode: 'frozen', start: 0 });
    let turned = false;
    let turnedBeforeLast = false;
    for (let i = 1; i <= 1000; i++) clock.schedule(i * 1000, () => undefined);
    clock.schedule(1_000_001, () => {
      turnedBeforeLast = turned;
    });
    setImmediate(() => {
      turned = true;
    });
    await clock.advance(2_000_000);
    expect(turnedBeforeLast).toBe(true);
    clock.close();
  });
});

import { describe, expect, it } from 'vitest';
import { FROZEN, testSandbox } from '../support/helpers.js';
import { createContract } from '../support/contract-walk.js';

/**
 * docs/scenarios.md, "Order": at one sandbox instant, recipients' planned acts run first, a reaction right after the
 * event that triggered it, then timeline steps and delayed reactions in load order and file order.
 */
/** Each step sets a fault named after itself: the fault list is in the order the steps ran. */
const mark = (id: string) => `addFaults: [{ id: ${id}, status: 500, match: { path: /api/nothing } }]`;
const FIRST = `
name: first
recipients:
  - { id: ann-signs, match: { email: ann@example.com }, sign: 2h }
timeline:
  - { id: step-sign, at: 2h, act: { match: { email: ann@example.com }, verb: sign } }
  - { id: step-b, at: 2h, ${mark('step-b')} }
  - { id: delayed-reaction, when: contract.sent, after: 2h, ${mark('delayed-reaction')} }
  - { id: step-a, at: 2h, ${mark('step-a')} }
  - { id: on-signed, when: contract.signed, ${mark('on-signed')} }
`;
const SECOND = `
name: second
timeline:
  - { id: step-c, at: 2h, ${mark('step-c')} }
  - { id: on-signed-too, when: contract.signed, ${mark('on-signed-too')} }
`;

/** Ways to reach the instant: at once, in steps, past it. */
const ADVANCES = [['2h'], ['1h', '1h'], ['30m', '30m', '30m', '30m'], ['3h'], ['1h59m', '1m']];

async function runOnce(advances: string[]): Promise<string[]> {
  const t = await testSandbox(FROZEN);
  try {
    // Both load at 09:00 on the frozen clock, so both scenarios' 2h is 11:00.
    expect((await t.control('/scenarios', { yaml: FIRST })).status).toBe(201);
    expect((await t.control('/scenarios', { yaml: SECOND })).status).toBe(201);
    // Sent after the scenarios loaded: the recipient's act and the delayed reaction are planned after the steps.
    const sent = await createContract(t, await t.demoAuth(), 'Lease', [
      { fullname: 'Ann', email: 'ann@example.com', action: 'sign' },
    ]);
    expect(sent.status).toBe(201);
    for (const by of advances) await t.control('/clock/advance', { by });
    const lease = t.sandbox.services.store.contracts.all().find((c) => c.name === 'Lease')!;
    const signedBy = lease.history.filter((h) => h.event === 'signed').map((h) => `signed by ${h.cause}`);
    const faults = (await t.control('/faults')).body.faults.map((f: any) => `fault ${f.id}`);
    return [...signedBy, ...faults];
  } finally {
    await t.close();
  }
}

describe('things due at the same sandbox instant', () => {
  it('run in the documented order, every time and however the clock gets there', async () => {
    const runs: string[][] = [];
    for (let i = 0; i < 10; i++) runs.push(await runOnce(ADVANCES[i % ADVANCES.length]!));
    for (const run of runs) expect(run).toEqual(runs[0]);
    expect(runs[0]).toEqual([
      // The recipient's planned act comes first (the timeline's own act then finds nothing left to sign) ...
      'signed by scenario:first:ann-signs',
      // ... then the reactions to its signature, in load order ...
      'fault first:on-signed',
      'fault second:on-signed-too',
      // ... then the timeline steps and delayed reactions, in load order, then file order.
      'fault first:step-b',
      'fault first:delayed-reaction',
      'fault first:step-a',
      'fault second:step-c',
    ]);
  });
});

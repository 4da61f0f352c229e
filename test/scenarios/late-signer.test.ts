import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BusEvent } from '../../src/core/events.js';
import { type WebhookReceiver, createWebhookReceiver } from '../../src/testing/webhook-receiver.js';
import { type TestSandbox, testSandbox } from '../support/helpers.js';
import { subscribe } from '../support/webhook-support.js';
import { scratchDir } from '../support/scratch.js';
import { createContract } from '../support/contract-walk.js';

const FILE = join(import.meta.dirname, '..', '..', 'scenarios', 'late-signer-webhook-down.yaml');

let t: TestSandbox | undefined;
let receiver: WebhookReceiver | undefined;
afterEach(async () => {
  await t?.close();
  await receiver?.close();
  t = receiver = undefined;
});

/** Starts a sandbox the way `esign-sandbox --scenario FILE` does, sends a two-signer contract, plays 4 days. */
async function run(
  seed?: number,
): Promise<{ t: TestSandbox; events: BusEvent[]; contractKey: string; receiver: WebhookReceiver }> {
  const r = await createWebhookReceiver();
  const sandbox = await testSandbox({ scenarios: [FILE], ...(seed !== undefined ? { seed } : {}) });
  const events: BusEvent[] = [];
  sandbox.sandbox.services.bus.onAny((e) => events.push(e));
  const auth = await sandbox.demoAuth();
  await subscribe(sandbox, r, auth);
  const res = await createContract(sandbox, auth, { name: 'Two signers', value: '<p/>' }, [
    { email: 'first@example.com', position: 1 },
    { email: 'second@example.com', position: 2 },
  ]);
  return { t: sandbox, events, contractKey: res.body.contract.contractKey, receiver: r };
}

describe('the 16-line example: the second signer signs three days late while the webhook endpoint is down for an hour', () => {
  it('starts the clock where the file says, frozen', async () => {
    ({ t, receiver } = await run());
    expect(t.sandbox.services.clocks.sandbox.state()).toMatchObject({
      now: '2026-03-02T09:00:00.000Z',
      mode: 'frozen',
    });
  });

  it('plays out: first signer at 5m, second signer 3 days after notification, and the endpoint down for an hour from that signature', async () => {
    let contractKey: string;
    ({ t, receiver, contractKey } = await run());
    const advance = (by: string) => t!.control('/clock/advance', { by });
    const deliveries = async () => (await t!.control('/webhook-deliveries')).body.deliveries as any[];
    const OUTAGE = 'scenario:late-signer-webhook-down:endpoint-down';
    await advance('5m');
    let c = (await t.control(`/contracts/${contractKey}`)).body;
    expect(c.recipients.map((r: any) => r.state)).toEqual(['signed', 'notified']);
    expect(c.recipients[1].notifiedAt).toBe('2026-03-02T09:05:00.000Z');
    // The first signature is delivered at once: the endpoint is up until the late signer signs.
    expect((await deliveries()).every((d) => d.status === 'delivered')).toBe(true);

    await advance('2d23h59m');
    c = (await t.control(`/contracts/${contractKey}`)).body;
    expect(c.status).toBe('Signed');
    expect((await deliveries()).flatMap((d) => d.attempts).some((a: any) => a.cause === OUTAGE)).toBe(false);
    await advance('1m');
    c = (await t.control(`/contracts/${contractKey}`)).body;
    expect(c.status).toBe('Fully signed');
    expect(c.recipients[1].actedAt).toBe('2026-03-05T09:05:00.000Z');
    expect(c.history.filter((h: any) => h.event === 'signed').map((h: any) => h.cause)).toEqual([
      'scenario:late-signer-webhook-down:others-prompt',
      'scenario:late-signer-webhook-down:second-signer-late',
    ]);
    // The late signature's deliveries meet the outage the signature itself started.
    const fully = (await deliveries()).find((d) => d.event === 'contract.fully_signed');
    expect(fully.status).toBe('pending');
    expect(fully.attempts.length).toBeGreaterThan(0);
    expect(fully.attempts.every((a: any) => a.statusCode === 503 && a.cause === OUTAGE)).toBe(true);
    expect(receiver.accepted().map((d) => d.payload.type)).not.toContain('contract.fully_signed');

    await advance('3h');
    expect((await deliveries()).every((d) => d.status === 'delivered')).toBe(true);
    expect(receiver.accepted().map((d) => d.payload.type)).toContain('contract.fully_signed');
    const log = (await t.control('/scenarios/late-signer-webhook-down')).body.log;
    expect(log.find((l: any) => l.cause === OUTAGE)).toMatchObject({ at: '2026-03-05T09:05:00.000Z' });
  });
});

describe('determinism', () => {
  it('gives identical event logs, keys included, on two runs with the same seed', async () => {
    const logs: string[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await run(42);
      await r.t.control('/clock/advance', { by: '4d' });
      // Receivers listen on random ports, so URLs differ between runs; events and keys must not.
      logs.push(JSON.stringify(r.events));
      await r.t.close();
      await r.receiver.close();
    }
    expect(JSON.parse(logs[0]!).length).toBeGreaterThan(8);
    expect(logs[1]).toBe(logs[0]);
  });

  it('takes the seed from the scenario file when no --seed is given', async () => {
    const { writeFileSync, readFileSync } = await import('node:fs');
    const dir = scratchDir('scenario-seed-');
    const file = join(dir, 'seeded.yaml');
    writeFileSync(file, `${readFileSync(FILE, 'utf8')}seed: 99\n`);
    const keys: string[] = [];
    for (let i = 0; i < 2; i++) {
      const s = await testSandbox({ scenarios: [file] });
      keys.push(await s.clientToken());
      await s.close();
    }
    expect(keys[1]).toBe(keys[0]);
  });
});

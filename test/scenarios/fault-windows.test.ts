/**
 * docs/scenarios.md, "Order": a fault or outage whose window starts at an instant covers every delivery attempted at
 * that instant, however the window was set and whatever ran first within the instant, because webhook deliveries
 * leave after everything else due then. The example from that page: signer B signs at 2d, and at 2d the receiver
 * goes down for 6 h; B's `contract.seen`, `contract.signed` and `contract.fully_signed` fall inside the outage.
 */
import { describe, expect, it } from 'vitest';
import { type WebhookReceiver, createWebhookReceiver } from '../../src/testing/webhook-receiver.js';
import { FROZEN, type TestSandbox, closeAfterEach, testSandbox } from '../support/helpers.js';
import { subscribe } from '../support/webhook-support.js';
import { createContract } from '../support/contract-walk.js';

const opened = closeAfterEach();
let t: TestSandbox | undefined;
let receiver: WebhookReceiver | undefined;

/** A signs an hour after the send; B two days after it, unless `b` says otherwise. */
const rules = (b = 'sign: 2d') => `
recipients:
  - { id: a-signs, match: { email: a@example.com }, sign: 1h }
  - { id: b-rule, match: { email: b@example.com }, ${b} }`;

const OUTAGE = 'webhookOutage: { for: 6h, status: 503 }';

/** The scenario loaded, a webhook registered, a contract sent to A and B (both notified at once) at 09:00. */
async function twoSigners(yaml: string): Promise<{ bKey: string }> {
  t = opened(await testSandbox(FROZEN));
  receiver = opened(await createWebhookReceiver());
  expect((await t.control('/scenarios', { yaml })).status).toBe(201);
  const auth = await t.demoAuth();
  await subscribe(t, receiver, auth);
  const sent = await createContract(t, auth, { name: 'Two signers', value: '<p>Terms</p>' }, [
    { email: 'a@example.com', action: 'sign' },
    { email: 'b@example.com', action: 'sign' },
  ]);
  expect(sent.status).toBe(201);
  const b = t.sandbox.services.store.recipients.all().find((r) => r.email === 'b@example.com')!;
  return { bKey: b.recipientKey };
}

const advance = async (by: string) => expect((await t!.control('/clock/advance', { by })).status).toBe(200);

/** Each delivery's event and the first attempt's time, status and cause. */
async function firstAttempts(): Promise<string[]> {
  const { deliveries } = (await t!.control('/webhook-deliveries')).body;
  return deliveries.map((d: any) => {
    const a = d.attempts[0];
    return `${d.event} ${a.at.slice(5, 16)} ${a.statusCode}${a.cause ? ` ${a.cause}` : ''}`;
  });
}

/** What the receiver holds once B's deliveries were retried after the outage (the fifth retry comes at 7h35m5s). */
async function receivedAfterOutage(): Promise<string[]> {
  await advance('8h');
  return receiver!.accepted().map((d) => d.payload.type);
}

const BEFORE_2D = [
  'contract.created 03-01T09:00 200',
  'contract.sent 03-01T09:00 200',
  'contract.seen 03-01T10:00 200',
  'contract.signed 03-01T10:00 200',
];
/** B's three deliveries at 2d, each answered 503 by the outage `cause` started. */
const insideOutage = (cause: string) =>
  ['contract.seen', 'contract.signed', 'contract.fully_signed'].map((e) => `${e} 03-03T09:00 503 ${cause}`);
const ALL_EVENTS = [
  'contract.created',
  'contract.sent',
  'contract.seen',
  'contract.signed',
  'contract.seen',
  'contract.signed',
  'contract.fully_signed',
];

const AT_2D = `name: down-at-2d${rules()}
timeline:
  - { id: receiver-down, at: 2d, ${OUTAGE} }`;

/** How the window is set, and what gets the clock (or the call) to 2d. */
const WAYS: Array<{ name: string; yaml: string; at2d(): Promise<void>; cause: string }> = [
  {
    name: 'by a timeline step at 2d: B signing at 2d (planned first) is delivered into the outage',
    yaml: AT_2D,
    at2d: () => advance('2d'),
    cause: 'scenario:down-at-2d:receiver-down',
  },
  {
    name: 'by a reaction to contract.fully_signed: the deliveries of the events before it in the same act are inside too',
    yaml: `name: down-on-completion${rules()}
timeline:
  - { id: receiver-down, when: contract.fully_signed, ${OUTAGE} }`,
    at2d: () => advance('2d'),
    cause: 'scenario:down-on-completion:receiver-down',
  },
  {
    name: 'through the control API at 2d, in the one call that has B sign first (file order), then takes the receiver down',
    yaml: `name: b-waits${rules('never: true')}`,
    async at2d() {
      await advance('2d');
      const res = await t!.control('/scenarios', {
        yaml: `name: at-2d
timeline:
  - { id: b-signs, at: 0s, act: { match: { email: b@example.com }, verb: sign } }
  - { id: receiver-down, at: 0s, ${OUTAGE} }`,
      });
      expect(res.status).toBe(201);
    },
    cause: 'scenario:at-2d:receiver-down',
  },
];

describe('a receiver outage whose window starts at an instant covers every delivery attempted at it', () => {
  for (const way of WAYS) {
    it(`set ${way.name}`, async () => {
      await twoSigners(way.yaml);
      await way.at2d();
      expect(await firstAttempts()).toEqual([...BEFORE_2D, ...insideOutage(way.cause)]);
      expect(await receivedAfterOutage()).toEqual(ALL_EVENTS);
    });
  }

  it('the same however the clock reaches 2d: in one jump, past it, or to the millisecond before and then on', async () => {
    for (const steps of [['3d'], ['47h59m59.999s', '1ms'], ['1d', '1d']]) {
      await twoSigners(AT_2D);
      for (const by of steps) await advance(by);
      expect((await firstAttempts()).slice(4), steps.join(' + ')).toEqual(
        insideOutage('scenario:down-at-2d:receiver-down'),
      );
    }
  });

  it('set through the library at 2d, right after B was made to sign in the same turn', async () => {
    const { bKey } = await twoSigners(`name: b-waits${rules('never: true')}`);
    await advance('2d');
    const { control } = t!.sandbox;
    control.recipients.act(bKey, 'sign');
    control.webhooks.startOutage({
      mode: { status: 503 },
      until: t!.sandbox.services.clocks.sandbox.now() + 6 * 3_600_000,
    });
    await t!.sandbox.services.clocks.sandbox.work.settled();
    expect((await firstAttempts()).slice(4)).toEqual(insideOutage('').map((line) => line.trim()));
    expect(await receivedAfterOutage()).toEqual(ALL_EVENTS);
  });

  it('ends before the deliveries due at its last instant: a retry due as the outage ends is delivered', async () => {
    // The retries of a delivery failed at 2d come 5s, 5m, 30m and 2h later: the fourth at 2d+2h35m5s.
    await twoSigners(`name: down-at-2d${rules()}
timeline:
  - { id: receiver-down, at: 2d, webhookOutage: { for: 2h35m5s, status: 503 } }`);
    await advance('2d2h35m5s');
    const { deliveries } = (await t!.control('/webhook-deliveries')).body;
    const fully = deliveries.find((d: any) => d.event === 'contract.fully_signed');
    expect(fully.attempts.map((a: any) => `${a.at.slice(5, 19)} ${a.statusCode}`)).toEqual([
      '03-03T09:00:00 503',
      '03-03T09:00:05 503',
      '03-03T09:05:05 503',
      '03-03T09:35:05 503',
      '03-03T11:35:05 200',
    ]);
  });
});

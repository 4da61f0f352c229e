/** The lifecycle seen from a real webhook receiver: the events of a walk arrive signed, in order, exactly once. */
import { afterEach, expect, it } from 'vitest';
import { createAndSend } from '../support/contract-walk.js';
import { FROZEN } from '../support/helpers.js';
import { type WebhookHarness, webhookHarness } from '../support/webhook-support.js';

let h: WebhookHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

it('a receiver sees created, sent, seen, signed, approved and fully_signed of a walk, in order and verified', async () => {
  h = await webhookHarness(FROZEN);
  const receiver = await h.receiver();
  await h.addWebhook(receiver);
  const walk = await createAndSend(
    h.t,
    [
      { name: 'Ann', action: 'sign', position: 1 },
      { name: 'Bob', action: 'approve', position: 2 },
      { name: 'Cid', action: 'sign', position: 2 },
    ],
    h.auth,
  );
  await walk.act('Ann', 'sign');
  await walk.act('Bob', 'approve');
  await walk.act('Cid', 'sign');
  await h.settled();
  const got = receiver.accepted().map((d) => {
    const { type, data } = d.payload;
    return `${type} ${data.status}${data.recipientKey ? ` ${walk.names[data.recipientKey]}` : ''}`;
  });
  expect(got).toEqual([
    'contract.created Created',
    'contract.sent Sent',
    'contract.seen Seen Ann',
    'contract.signed Signed Ann',
    'contract.seen Signed Bob',
    'contract.approved Approved Bob',
    'contract.seen Approved Cid',
    'contract.signed Signed Cid',
    'contract.fully_signed Fully signed',
  ]);
  expect(receiver.deliveries.every((d) => d.verified && !d.duplicate)).toBe(true);
  expect(receiver.accepted().every((d) => d.payload.data.contractKey === walk.contractKey)).toBe(true);
});

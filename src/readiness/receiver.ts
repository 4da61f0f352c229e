/**
 * The webhook receiver's checks (docs/readiness.md): what the integration answered to the deliveries it got.
 * A delivery the sandbox spoilt on purpose (a receiver fault: bad signature, stale timestamp) must be refused; a
 * correct one must be acknowledged, duplicates included (Standard Webhooks), and soon. An attempt a simulated outage
 * answered never reached the receiver and says nothing about it.
 */
import { type Check, Tally, deliveryEvidence, seconds } from './check.js';
import type { AttemptSeen, AttemptShaping, DeliverySeen, Observed } from './observed.js';
import type { Thresholds } from './thresholds.js';

const ok = (a: AttemptSeen) => a.statusCode !== undefined && a.statusCode >= 200 && a.statusCode < 300;
const shaped = (a: AttemptSeen, kind: AttemptShaping) => a.shaping.includes(kind);
/** Signed correctly and in time, and sent to the receiver (no outage answered in its place). */
const correct = (a: AttemptSeen) =>
  !shaped(a, 'bad-signature') && !shaped(a, 'stale-timestamp') && !shaped(a, 'outage');

/** Whether an earlier attempt of the delivery, correct, was acknowledged: this one is then a duplicate. */
function acceptedBefore(d: DeliverySeen, index: number): boolean {
  for (let i = 0; i < index; i++) if (correct(d.attempts[i]!) && ok(d.attempts[i]!)) return true;
  return false;
}

/** Every attempt for which `test` holds, as evidence with its detail. */
function attemptsWhere(
  o: Observed,
  t: Thresholds,
  test: (a: AttemptSeen, d: DeliverySeen, index: number) => boolean,
  detail: (a: AttemptSeen) => string,
) {
  const tally = new Tally(t.evidence);
  for (const d of o.deliveries)
    d.attempts.forEach((a, i) => {
      if (test(a, d, i)) tally.add(() => [deliveryEvidence(d, a, detail(a))]);
    });
  return tally.outcome();
}

const answer = (a: AttemptSeen) =>
  a.statusCode !== undefined ? `answered ${a.statusCode}` : `no answer (${a.error ?? 'none'})`;

export const acceptsForgedWebhook: Check = {
  id: 'accepts-forged-webhook',
  severity: 'error',
  title: 'Accepts webhooks with a bad signature',
  looksFor: 'a 2xx answer to a delivery attempt the sandbox signed wrongly on purpose (receiver fault bad-signature)',
  advice:
    'Verify webhook-signature with the webhook’s secret over the raw body (Standard Webhooks) before anything else; answer 401 when it does not match.',
  run: (o, t) =>
    attemptsWhere(
      o,
      t,
      (a) => shaped(a, 'bad-signature') && ok(a),
      (a) => `${answer(a)} to a delivery signed with a bad signature`,
    ),
};

export const acceptsStaleWebhook: Check = {
  id: 'accepts-stale-webhook',
  severity: 'error',
  title: 'Accepts webhooks with a stale timestamp',
  looksFor: 'a 2xx answer to a delivery attempt whose webhook-timestamp the sandbox set in the past on purpose',
  advice:
    'Refuse a webhook-timestamp more than five minutes from your clock (the Standard Webhooks libraries do): it is how replays are stopped.',
  run: (o, t) =>
    attemptsWhere(
      o,
      t,
      (a) => shaped(a, 'stale-timestamp') && ok(a),
      (a) => `${answer(a)} to a delivery with a stale webhook-timestamp`,
    ),
};

export const webhookReceiverFailing: Check = {
  id: 'webhook-receiver-failing',
  severity: 'error',
  title: 'The webhook receiver fails correct deliveries',
  looksFor:
    'a non-2xx answer, or none, to a correctly signed delivery that no simulated outage answered (duplicates of an acknowledged delivery are rejects-duplicate’s)',
  advice:
    'Answer 2xx to every correctly signed delivery, fast, and do the work after answering. In tests, keep the receiver up until deliveries are settled (settle()).',
  run: (o, t) =>
    attemptsWhere(
      o,
      t,
      (a, d, i) => correct(a) && !ok(a) && !acceptedBefore(d, i),
      (a) => `${answer(a)} to a correct delivery`,
    ),
};

export const rejectsDuplicate: Check = {
  id: 'rejects-duplicate',
  severity: 'warning',
  title: 'Rejects duplicate webhooks',
  looksFor: 'a non-2xx answer, or none, to a correct delivery it had already acknowledged once (same webhook-id)',
  advice:
    'Acknowledge a duplicate (same webhook-id) with 2xx and do nothing more: keep the ids you processed and skip the work, not the answer.',
  run: (o, t) =>
    attemptsWhere(
      o,
      t,
      (a, d, i) => correct(a) && !ok(a) && acceptedBefore(d, i),
      (a) => `${answer(a)} to a duplicate of a delivery it had acknowledged`,
    ),
};

export const slowWebhookReceiver: Check = {
  id: 'slow-webhook-receiver',
  severity: 'warning',
  title: 'The webhook receiver answers slowly',
  looksFor: 'an answer to a delivery that took longer than slowWebhook (5s; the sandbox gives up after 10 s)',
  advice: 'Answer 2xx first and do the work after (a queue, a background job); providers time deliveries out.',
  run: (o, t) =>
    attemptsWhere(
      o,
      t,
      (a) => !shaped(a, 'outage') && a.statusCode !== undefined && a.durationMs > t.slowWebhookMs,
      (a) => `${answer(a)} after ${seconds(a.durationMs)}`,
    ),
};

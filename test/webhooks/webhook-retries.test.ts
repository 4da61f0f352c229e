import { afterEach, describe, expect, it } from 'vitest';
import { wallNow } from '../../src/core/wall-time.js';
import { RETRY_SCHEDULE_MS } from '../../src/webhooks/schedule.js';
import { FROZEN } from '../support/helpers.js';
import { type WebhookHarness, blackHole, refusedUrl, webhookHarness } from '../support/webhook-support.js';

let h: WebhookHarness;
afterEach(() => h?.close());

const START = Date.parse(FROZEN.start);
const iso = (ms: number) => new Date(ms).toISOString();

describe('retries on the sandbox clock', () => {
  it('follow 5s, 5m, 30m, 2h, 5h, 10h, 14h, 20h, 24h step by step, then give up as failed', async () => {
    h = await webhookHarness(FROZEN);
    const receiver = await h.receiver();
    await h.addWebhook(receiver, { created: true });
    receiver.failNext(100, { status: 500 });
    await h.createContract();
    await h.settled();
    expect(receiver.deliveries).toHaveLength(1);

    let now = START;
    for (const [i, step] of RETRY_SCHEDULE_MS.entries()) {
      const [pending] = await h.deliveries();
      expect(pending.status).toBe('pending');
      expect(pending.nextAttemptAt).toBe(iso(now + step));
      // Frozen: nothing happens until the clock moves, and not a millisecond early.
      await h.advance(step - 1);
      expect(receiver.deliveries).toHaveLength(i + 1);
      await h.advance(1);
      now += step;
      expect(receiver.deliveries).toHaveLength(i + 2);
    }

    const [failed] = await h.deliveries();
    expect(failed.status).toBe('failed');
    expect(failed).not.toHaveProperty('nextAttemptAt');
    expect(failed.attempts).toHaveLength(10);
    expect(failed.attempts.map((a: any) => a.trigger)).toEqual(['first', ...Array(9).fill('retry')]);
    expect(failed.attempts.every((a: any) => a.statusCode === 500)).toBe(true);
    const due = [START];
    for (const s of RETRY_SCHEDULE_MS) due.push(due.at(-1)! + s);
    expect(failed.attempts.map((a: any) => a.at)).toEqual(due.map(iso));
    // Every attempt carried the same webhook-id and a signature for its own wall time, which the log shows next to
    // the attempt's sandbox time; the payload keeps the event's sandbox time.
    expect(new Set(receiver.deliveries.map((d) => d.id)).size).toBe(1);
    expect(receiver.deliveries.every((d) => d.verified)).toBe(true);
    expect(receiver.deliveries.map((d) => d.timestamp)).toEqual(failed.attempts.map((a: any) => a.webhookTimestamp));
    expect(receiver.deliveries.every((d) => Math.abs(d.timestamp - wallNow() / 1000) < 60)).toBe(true);
    expect(receiver.deliveries.every((d) => d.payload.timestamp === FROZEN.start)).toBe(true);

    await h.advance(7 * 86_400_000);
    expect(receiver.deliveries).toHaveLength(10);
  });

  it('stops retrying once an attempt succeeds, and the receiver sees the duplicates by webhook-id', async () => {
    h = await webhookHarness(FROZEN);
    const receiver = await h.receiver();
    await h.addWebhook(receiver, { created: true });
    receiver.failNext(2, { status: 502 });
    await h.createContract();
    await h.settled();
    await h.advance(5_000);
    await h.advance(5 * 60_000);
    const [d] = await h.deliveries();
    expect(d.status).toBe('delivered');
    expect(d.attempts.map((a: any) => a.statusCode)).toEqual([502, 502, 200]);
    expect(receiver.deliveries.map((r) => r.duplicate)).toEqual([false, true, true]);
    expect(receiver.accepted()).toHaveLength(1);
    await h.advance(86_400_000);
    expect(receiver.deliveries).toHaveLength(3);
  });

  it.each([429, 503])('honours Retry-After on %i', async (status) => {
    h = await webhookHarness(FROZEN);
    const receiver = await h.receiver();
    await h.addWebhook(receiver, { created: true });
    receiver.failNext(1, { status, retryAfter: 120 });
    await h.createContract();
    await h.settled();
    expect((await h.deliveries())[0].nextAttemptAt).toBe(iso(START + 120_000));
    await h.advance(119_999);
    expect(receiver.deliveries).toHaveLength(1);
    await h.advance(1);
    expect((await h.deliveries())[0].status).toBe('delivered');
  });

  it('ignores Retry-After on other statuses', async () => {
    h = await webhookHarness(FROZEN);
    const receiver = await h.receiver();
    await h.addWebhook(receiver, { created: true });
    receiver.failNext(1, { status: 500, retryAfter: 120 });
    await h.createContract();
    await h.settled();
    expect((await h.deliveries())[0].nextAttemptAt).toBe(iso(START + 5_000));
  });

  it('counts a refused connection as a failure', async () => {
    h = await webhookHarness(FROZEN);
    await h.addWebhook(await refusedUrl(), { created: true });
    await h.createContract();
    await h.settled();
    const [d] = await h.deliveries();
    expect(d.status).toBe('pending');
    expect(d.attempts).toEqual([
      {
        at: FROZEN.start,
        trigger: 'first',
        webhookTimestamp: expect.any(Number),
        error: 'connection refused',
        durationMs: expect.any(Number),
      },
    ]);
    expect(d.nextAttemptAt).toBe(iso(START + 5_000));
  });

  it('counts a receiver that does not answer in time as a failure, and retries it', async () => {
    h = await webhookHarness({ ...FROZEN, webhookTimeoutMs: 300 });
    const receiver = await h.receiver();
    await h.addWebhook(receiver, { created: true });
    receiver.failNext(1, { hang: true });
    await h.createContract();
    await h.settled();
    const [d] = await h.deliveries();
    expect(d.attempts[0].error).toBe('timeout: no answer within 300 ms');
    expect(d.attempts[0]).not.toHaveProperty('statusCode');
    expect(d.attempts[0].durationMs).toBeGreaterThanOrEqual(250);
    await h.advance(5_000);
    expect((await h.deliveries())[0].status).toBe('delivered');
    expect(receiver.deliveries.map((r) => r.answeredStatus)).toEqual(['no-answer', 200]);
  });

  it('counts a dropped connection as a failure', async () => {
    h = await webhookHarness(FROZEN);
    const receiver = await h.receiver();
    await h.addWebhook(receiver, { created: true });
    receiver.failNext(1, { hangUp: true });
    await h.createContract();
    await h.settled();
    const [d] = await h.deliveries();
    expect(d.status).toBe('pending');
    expect(d.attempts[0].error).toEqual(expect.any(String));
    expect(d.attempts[0]).not.toHaveProperty('statusCode');
  });

  it('stops pending retries when the webhook is deleted', async () => {
    h = await webhookHarness(FROZEN);
    const receiver = await h.receiver();
    const { webhookKey } = await h.addWebhook(receiver, { created: true });
    receiver.failNext(100);
    await h.createContract();
    await h.settled();
    await h.advance(5_000);
    expect(receiver.deliveries).toHaveLength(2);
    expect(h.t.sandbox.services.clocks.sandbox.pendingCount()).toBe(1);
    await h.t.post('/api/webhook', { data: { action: 'delete', webhooks: [{ webhookKey }] } }, h.auth);
    const [d] = await h.deliveries();
    expect(d).toMatchObject({ status: 'failed', stopped: 'webhook deleted' });
    expect(d).not.toHaveProperty('nextAttemptAt');
    expect(h.t.sandbox.services.clocks.sandbox.pendingCount()).toBe(0);
    await h.advance(3 * 86_400_000);
    expect(receiver.deliveries).toHaveLength(2);
  });

  it('runs retries that fall due together in time order when the clock jumps', async () => {
    h = await webhookHarness(FROZEN);
    const receiver = await h.receiver();
    await h.addWebhook(receiver, { created: true });
    receiver.failNext(2);
    const first = await h.createContract();
    await h.settled();
    await h.advance(2_000);
    const second = await h.createContract();
    await h.settled();
    await h.advance(10_000);
    expect(receiver.deliveries.map((d) => d.payload.data.contractKey)).toEqual([first, second, first, second]);
    expect((await h.deliveries()).map((d: any) => d.attempts.map((a: any) => a.at))).toEqual([
      [iso(START), iso(START + 5_000)],
      [iso(START + 2_000), iso(START + 7_000)],
    ]);
  });
});

describe('redelivery', () => {
  it('sends a delivery again at once with the same webhook-id, and logs the attempt', async () => {
    h = await webhookHarness(FROZEN);
    const receiver = await h.receiver();
    await h.addWebhook(receiver, { created: true });
    await h.createContract();
    await h.settled();
    await h.advance(60_000);
    const [d] = await h.deliveries();
    const res = await h.t.control(`/webhook-deliveries/${d.id}/redeliver`, {});
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('delivered');
    expect(res.body.attempts.map((a: any) => [a.trigger, a.at, a.statusCode])).toEqual([
      ['first', iso(START), 200],
      ['redeliver', iso(START + 60_000), 200],
    ]);
    expect(receiver.deliveries.map((r) => r.id)).toEqual([d.webhookId, d.webhookId]);
    expect(receiver.deliveries[1]!.duplicate).toBe(true);
    expect(receiver.deliveries[1]!.verified).toBe(true);
    expect(receiver.deliveries[1]!.body).toBe(receiver.deliveries[0]!.body);
  });

  it('can revive a failed delivery', async () => {
    h = await webhookHarness(FROZEN);
    const receiver = await h.receiver();
    await h.addWebhook(receiver, { created: true });
    receiver.failNext(10);
    await h.createContract();
    await h.settled();
    await h.advance(4 * 86_400_000);
    const [d] = await h.deliveries();
    expect(d.status).toBe('failed');
    const res = await h.t.control(`/webhook-deliveries/${d.id}/redeliver`, {});
    expect(res.body.status).toBe('delivered');
    expect(res.body.attempts).toHaveLength(11);
  });

  it('answers 404 for an unknown delivery and 409 when the webhook is gone', async () => {
    h = await webhookHarness(FROZEN);
    const receiver = await h.receiver();
    const { webhookKey } = await h.addWebhook(receiver, { created: true });
    await h.createContract();
    await h.settled();
    const [d] = await h.deliveries();
    expect((await h.t.control('/webhook-deliveries/dlv_nope/redeliver', {})).status).toBe(404);
    await h.t.post('/api/webhook', { data: { action: 'delete', webhooks: [{ webhookKey }] } }, h.auth);
    const res = await h.t.control(`/webhook-deliveries/${d.id}/redeliver`, {});
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/deleted/);
  });
});

describe('simulated outages (for scenarios)', () => {
  it('fail matching attempts without contacting the receiver, logged with their cause, until ended', async () => {
    h = await webhookHarness(FROZEN);
    const receiver = await h.receiver();
    const other = await h.receiver();
    const { webhookKey } = await h.addWebhook(receiver, { created: true });
    await h.addWebhook(other, { created: true });
    const outage = h.t.sandbox.control.webhooks.startOutage({
      webhookKey,
      mode: { status: 503, retryAfter: 60 },
      cause: 'scenario:flaky:down',
    });
    await h.createContract();
    await h.settled();
    expect(receiver.deliveries).toEqual([]);
    expect(other.deliveries).toHaveLength(1);
    const [d] = h.t.sandbox.control.webhooks.deliveries({ webhookKey });
    expect(d!.attempts).toEqual([
      { at: FROZEN.start, trigger: 'first', statusCode: 503, durationMs: 0, cause: 'scenario:flaky:down' },
    ]);
    expect(d!.nextAttemptAt).toBe(iso(START + 60_000));
    h.t.sandbox.control.webhooks.endOutage(outage);
    await h.advance(60_000);
    expect(receiver.deliveries).toHaveLength(1);
    expect(h.t.sandbox.control.webhooks.deliveries({ webhookKey })[0]!.status).toBe('delivered');
  });

  it('can refuse connections and end by itself at a sandbox time', async () => {
    h = await webhookHarness(FROZEN);
    const receiver = await h.receiver();
    await h.addWebhook(receiver, { created: true });
    h.t.sandbox.control.webhooks.startOutage({ url: receiver.url, mode: { refuse: true }, until: START + 10_000 });
    await h.createContract();
    await h.settled();
    await h.advance(5_000);
    expect(receiver.deliveries).toEqual([]);
    await h.advance(5 * 60_000);
    const [d] = h.t.sandbox.control.webhooks.deliveries();
    expect(d!.attempts.map((a) => a.error ?? a.statusCode)).toEqual([
      'connection refused (simulated outage)',
      'connection refused (simulated outage)',
      200,
    ]);
  });
});

describe('a dead receiver', () => {
  it('does not slow API responses or other endpoints while its deliveries hang', async () => {
    h = await webhookHarness({ ...FROZEN, webhookTimeoutMs: 10_000 });
    const hole = await blackHole();
    try {
      const healthy = await h.receiver();
      await h.addWebhook(hole.url, { created: true });
      await h.addWebhook(healthy, { created: true });
      for (let i = 0; i < 5; i++) await h.createContract();
      await healthy.waitFor(5);

      // The create answers while its delivery to the black hole still hangs: had it waited for that delivery, the
      // attempt would have ended (its 10 s timeout) and be recorded by the time the answer came.
      await h.createContract();
      const toHole = h.t.sandbox.control.webhooks.deliveries().filter((d) => d.url === hole.url);
      expect(toHole).toHaveLength(6);
      expect(toHole.map((d) => [d.status, d.attempts.length])).toEqual(Array(6).fill(['pending', 0]));
      await healthy.waitFor(6);

      const stuck = h.t.sandbox.control.webhooks.deliveries({ status: 'pending' }).filter((d) => d.url === hole.url);
      expect(stuck).toHaveLength(6);
      expect(stuck.every((d) => d.attempts.length === 0)).toBe(true);
    } finally {
      await h.close();
      await hole.close();
    }
  });
});

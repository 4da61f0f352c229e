/**
 * A receiver that verifies with the public `standardwebhooks` package, unmodified (its 5-minute
 * tolerance against wall time included), accepts every attempt whatever the sandbox clock says, because the
 * sandbox signs `webhook-timestamp` with wall time and keeps the event's sandbox time in the payload.
 */
import { describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/index.js';
import { closeAfterEach } from '../support/helpers.js';
import { type ProductionReceiver, productionReceiver } from '../support/webhook-support.js';

const opened = closeAfterEach();
let running: RunningSandbox;

async function api(path: string, data: unknown, token?: string): Promise<any> {
  const res = await fetch(`${running.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ data }),
  });
  return res.json();
}

/** A platform token of the running sandbox's platform, fresh from /api/token. */
const platformToken = async (): Promise<string> =>
  (await api('/api/token', { action: 'create', apiKey: running.apiKey, secret: running.secret })).access_token;

/** Subscribes the receiver to contract.created and hands it the webhook's secret. */
async function subscribe(receiver: ProductionReceiver, token: string): Promise<void> {
  const created = await api(
    '/api/webhook',
    { action: 'create', clientKey: running.clientKey, webhooks: [{ url: receiver.url, created: true }] },
    token,
  );
  receiver.useSecret(created.webhooks[0].secret);
}

const createNda = (token: string) =>
  api(
    '/api/contract',
    { action: 'create', clientKey: running.clientKey, contract: { name: 'NDA', value: '<p>x</p>' } },
    token,
  );

describe('webhooks signed with wall time', () => {
  it('verify with standardwebhooks unmodified on every attempt, retries days later in sandbox time included, across a 30-day advance', async () => {
    const receiver = opened(await productionReceiver());
    running = opened(await startSandbox({ clock: 'frozen' }));
    receiver.failNext(6);
    const token = await platformToken();
    await subscribe(receiver, token);

    // Thirty days on, the sandbox is far from wall time: the old sandbox-time header would be refused by verify().
    await running.clock.advance('30d');
    // Service times are whole seconds (docs/compatibility.md, "Times"): the payload names the event's second.
    const now = (await running.clock.now()).getTime();
    const eventTime = new Date(Math.floor(now / 1000) * 1000).toISOString();
    const contract = await createNda(await platformToken());
    expect(contract.code).toBe('201');
    await running.clock.advance('0s');
    expect(receiver.seen).toHaveLength(1);

    // The receiver answers 500 to the first six attempts: retries 5s, 5m, 30m, 2h, 5h later; the seventh (10h on) is accepted.
    await running.clock.advance('30d');
    const [d] = await running.webhooks.deliveries();
    expect(d!.status).toBe('delivered');
    expect(d!.attempts.map((a) => a.statusCode)).toEqual([500, 500, 500, 500, 500, 500, 200]);
    expect(receiver.seen.map((s) => [s.verified, s.error])).toEqual(Array(7).fill([true, undefined]));
    expect(new Set(receiver.seen.map((s) => s.id)).size).toBe(1);
    // Each attempt: the header is the signed wall time (the log shows it beside the attempt's sandbox time) …
    expect(receiver.seen.map((s) => s.timestamp)).toEqual(d!.attempts.map((a) => a.webhookTimestamp));
    const sandboxTimes = d!.attempts.map((a) => Date.parse(a.at));
    expect(sandboxTimes[sandboxTimes.length - 1]! - sandboxTimes[0]!).toBe(
      (5 + 300 + 1800 + 7200 + 18000 + 36000) * 1000,
    );
    // … and the payload keeps the event's sandbox time, 30 days ahead of wall time.
    expect(receiver.seen.every((s) => s.eventTime === eventTime)).toBe(true);
    expect(Date.parse(eventTime) / 1000 - receiver.seen[0]!.timestamp).toBeGreaterThan(29 * 86_400);

    // A redelivery long after (sandbox time) verifies as well.
    await running.clock.advance('20d');
    await running.webhooks.redeliver(d!.id);
    expect(receiver.seen.at(-1)).toMatchObject({ verified: true, answered: 200 });
  });

  it('verify with standardwebhooks when the clock is set backwards, too', async () => {
    const receiver = opened(await productionReceiver());
    running = opened(await startSandbox({ clock: 'frozen', start: '2001-01-01T00:00:00Z' }));
    const token = await platformToken();
    await subscribe(receiver, token);
    await createNda(token);
    await running.clock.advance('0s');
    expect(receiver.seen).toEqual([
      expect.objectContaining({ verified: true, answered: 200, eventTime: '2001-01-01T00:00:00.000Z' }),
    ]);
  });
});

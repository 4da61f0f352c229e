import { afterEach, describe, expect, it } from 'vitest';
import { createWebhookReceiver, startSandbox, type RunningSandbox, type WebhookReceiver } from '../../src/index.js';
import { wallNow } from '../../src/core/wall-time.js';
import { signatureHeaders } from '../../src/webhooks/sender.js';

const SECRET = `whsec_${Buffer.alloc(24, 1).toString('base64')}`;
const BODY = JSON.stringify({
  type: 'contract.created',
  timestamp: '2026-03-01T09:00:00.000Z',
  data: { contractKey: 'c1', clientKey: 'k', status: 'Created' },
});
const AT = Date.parse('2026-03-01T09:00:00.000Z');
/** What the sandbox signs with: wall time at the attempt. */
const wallHeaders = (id: string, body = BODY) => signatureHeaders(SECRET, id, wallNow(), body);

let receiver: WebhookReceiver | undefined;
let running: RunningSandbox | undefined;
afterEach(async () => {
  await receiver?.close();
  await running?.close();
  receiver = undefined;
  running = undefined;
});

const send = (url: string, body: string, headers: Record<string, string>) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

describe('createWebhookReceiver', () => {
  it('accepts a correctly signed delivery and rejects a tampered body with 401', async () => {
    receiver = await createWebhookReceiver({ secret: SECRET });
    const headers = wallHeaders('msg_1');
    expect((await send(receiver.url, BODY, headers)).status).toBe(200);
    expect((await send(receiver.url, BODY.replace('c1', 'c2'), headers)).status).toBe(401);
    expect(receiver.deliveries.map((d) => [d.verified, d.verifyError])).toEqual([
      [true, undefined],
      [false, 'no matching signature'],
    ]);
    expect(receiver.accepted().map((d) => d.payload.data.contractKey)).toEqual(['c1']);
  });

  it('by default, checks the timestamp against wall time with five minutes of tolerance, as standardwebhooks does', async () => {
    receiver = await createWebhookReceiver({ secret: SECRET });
    const now = wallNow();
    expect((await send(receiver.url, BODY, signatureHeaders(SECRET, 'msg_1', now - 290_000, BODY))).status).toBe(200);
    expect((await send(receiver.url, BODY, signatureHeaders(SECRET, 'msg_2', now - 10 * 60_000, BODY))).status).toBe(
      401,
    );
    expect((await send(receiver.url, BODY, signatureHeaders(SECRET, 'msg_3', now + 10 * 60_000, BODY))).status).toBe(
      401,
    );
    // A timestamp in sandbox time far from wall time (the old behaviour) is refused like any stale one.
    expect(
      (await send(receiver.url, BODY, signatureHeaders(SECRET, 'msg_4', now - 30 * 86_400_000, BODY))).status,
    ).toBe(401);
    expect(receiver.deliveries.map((d) => d.verifyError)).toEqual([
      undefined,
      'timestamp outside tolerance',
      'timestamp outside tolerance',
      'timestamp outside tolerance',
    ]);
  });

  it('checks the timestamp against another clock when given one (now)', async () => {
    let now = AT;
    receiver = await createWebhookReceiver({ secret: SECRET, now: () => now });
    expect((await send(receiver.url, BODY, signatureHeaders(SECRET, 'msg_1', AT, BODY))).status).toBe(200);
    now = AT + 301_000;
    expect((await send(receiver.url, BODY, signatureHeaders(SECRET, 'msg_1', AT, BODY))).status).toBe(401);
    expect(receiver.deliveries[1]!.verifyError).toBe('timestamp outside tolerance');
  });

  it('fails the next N requests as told, then answers 200 again', async () => {
    receiver = await createWebhookReceiver({ secret: SECRET });
    receiver.failNext(2, { status: 429, retryAfter: 30 });
    const headers = wallHeaders('msg_1');
    const answers = [];
    for (let i = 0; i < 3; i++) {
      const res = await send(receiver.url, BODY, headers);
      answers.push([res.status, res.headers.get('retry-after')]);
    }
    expect(answers).toEqual([
      [429, '30'],
      [429, '30'],
      [200, null],
    ]);
    expect(receiver.deliveries.map((d) => d.duplicate)).toEqual([false, true, true]);
  });

  it('tests a handler end to end against a sandbox on a real port, verifying with no clock option whatever the sandbox time', async () => {
    running = await startSandbox({ clock: 'frozen', start: '2026-03-01T09:00:00Z' });
    receiver = await createWebhookReceiver();
    const token = await fetch(`${running.url}/api/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data: { action: 'create', apiKey: running.apiKey, secret: running.secret } }),
    }).then((r) => r.json() as Promise<{ access_token: string }>);
    const api = (path: string, data: unknown) =>
      fetch(`${running!.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token.access_token}` },
        body: JSON.stringify({ data }),
      }).then((r) => r.json() as Promise<any>);
    const created = await api('/api/webhook', {
      action: 'create',
      clientKey: running.clientKey,
      webhooks: [{ url: receiver.url, created: true }],
    });
    receiver.useSecret(created.webhooks[0].secret);
    receiver.failNext(1);
    await api('/api/contract', {
      action: 'create',
      clientKey: running.clientKey,
      contract: { name: 'NDA', value: '<p>x</p>' },
    });
    await receiver.waitFor(1);
    await running.clock.advance('5s');
    await running.clock.advance('40d');
    await running.webhooks.redeliver((await running.webhooks.deliveries())[0]!.id);
    expect(receiver.deliveries.map((d) => [d.answeredStatus, d.verified, d.duplicate])).toEqual([
      [500, true, false],
      [200, true, true],
      [200, true, true],
    ]);
    expect(receiver.deliveries.every((d) => d.payload.timestamp === '2026-03-01T09:00:00.000Z')).toBe(true);
    const log = await fetch(`${running.url}/__sandbox/webhook-deliveries`).then((r) => r.json() as Promise<any>);
    expect(log.deliveries[0].status).toBe('delivered');
  });
});

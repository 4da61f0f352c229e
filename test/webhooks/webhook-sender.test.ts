/**
 * How an attempt goes out (src/webhooks/sender.ts, docs/webhooks.md "Retries"): to any port a receiver may listen on,
 * a refusal counted as a failed attempt; an attempt under way ends at the instant it left before the clock jumps on;
 * the sandbox's stop ends its connections to receivers, idle or in use.
 */
import { subscribe as subscribeChannel, unsubscribe as unsubscribeChannel } from 'node:diagnostics_channel';
import { type ServerResponse, createServer } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { FROZEN } from '../support/helpers.js';
import { type WebhookHarness, webhookHarness } from '../support/webhook-support.js';

let h: WebhookHarness;
const opened: Array<{ close(): unknown }> = [];
afterEach(async () => {
  await h?.close();
  for (const thing of opened.splice(0)) await thing.close();
});

const START = Date.parse(FROZEN.start);
const iso = (ms: number) => new Date(ms).toISOString();

/** A receiver that holds the first request it gets until `answer()`, and answers every later one 500 at once. */
async function holdingReceiver() {
  let held: ServerResponse | undefined;
  let arrived!: () => void;
  const arrival = new Promise<void>((resolve) => (arrived = resolve));
  const server = createServer((req, res) => {
    req.resume();
    if (held) return void res.writeHead(500).end();
    held = res;
    arrived();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const receiver = {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    arrival,
    answer: (status: number) => held!.writeHead(status).end(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  opened.push(receiver);
  return receiver;
}

/** The sockets the process connects to `port` from now on (Node's `net.client.socket` channel). */
function socketsTo(port: number): { sockets: Socket[]; stop(): void } {
  const sockets: Socket[] = [];
  const onSocket = (message: unknown) => {
    const { socket } = message as { socket: Socket };
    socket.once('connect', () => socket.remotePort === port && sockets.push(socket));
  };
  subscribeChannel('net.client.socket', onSocket);
  return { sockets, stop: () => unsubscribeChannel('net.client.socket', onSocket) };
}

describe('a delivery attempt', () => {
  it('goes to port 9 too (a port fetch() refuses without trying): refused, a failed attempt, its retry due 5 s later', async () => {
    h = await webhookHarness(FROZEN);
    await h.addWebhook('http://127.0.0.1:9/hooks', { created: true });
    await h.createContract();
    await h.settled();
    const [d] = await h.deliveries();
    expect(d.attempts.map((a: any) => [a.at, a.trigger, a.error])).toEqual([
      [FROZEN.start, 'first', 'connection refused'],
    ]);
    expect(d.status).toBe('pending');
    expect(d.nextAttemptAt).toBe(iso(START + 5_000));
  });

  it('under way while the clock advances past a timer ends at the instant it left, and retries counted from there', async () => {
    h = await webhookHarness(FROZEN);
    const receiver = await holdingReceiver();
    await h.addWebhook(receiver.url, { created: true });
    h.t.sandbox.services.clocks.sandbox.after(60_000, () => undefined, 'a timer on the way');
    await h.createContract();
    await receiver.arrival;
    const advancing = h.advance(3_600_000);
    await new Promise((resolve) => setImmediate(resolve));
    receiver.answer(500);
    await advancing;
    const [d] = await h.deliveries();
    expect(d.attempts.map((a: any) => [a.at, a.statusCode])).toEqual([
      [iso(START), 500],
      [iso(START + 5_000), 500],
      [iso(START + 5_000 + 300_000), 500],
      [iso(START + 5_000 + 300_000 + 1_800_000), 500],
    ]);
  });
});

describe("the sandbox's stop", () => {
  it('ends its connections to receivers: the idle one kept alive, and the one of an attempt in flight', async () => {
    const harness = await webhookHarness(FROZEN);
    const answering = await harness.receiver();
    const holding = await holdingReceiver();
    const watched = [socketsTo(answering.port), socketsTo(holding.port)];
    try {
      await harness.addWebhook(answering, { created: true });
      const contractKey = await harness.createContract();
      await harness.settled(); // answered: its connection waits in the pool
      await harness.addWebhook(holding.url, { sent: true });
      harness.emit('contract.sent', { contractKey, status: 'Sent' });
      await holding.arrival;
      await harness.t.close();
      for (const { sockets } of watched) expect(sockets.map((s) => s.destroyed)).toEqual([true]);
    } finally {
      for (const w of watched) w.stop();
      await Promise.all(harness.receivers.map((r) => r.close()));
    }
  });
});

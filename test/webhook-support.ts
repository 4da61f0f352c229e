/** Shared set-up for the webhook tests: a sandbox, a client token, real receivers, and API shortcuts. */
import { createServer, type Server, type Socket } from 'node:net';
import type { SandboxOptions } from '../src/config/options.js';
import type { ContractEvent, ContractEventType } from '../src/core/events.js';
import { type WebhookReceiver, type WebhookReceiverOptions, createWebhookReceiver } from '../src/testing/webhook-receiver.js';
import { type Auth, DEMO, type TestSandbox, testSandbox } from './helpers.js';

export type Flags = Partial<Record<'created' | 'sent' | 'seen' | 'signed' | 'approved' | 'fullySigned', boolean>>;
export const ALL_FLAGS: Flags = { created: true, sent: true, seen: true, signed: true, approved: true, fullySigned: true };

export interface WebhookHarness {
  t: TestSandbox;
  auth: Auth;
  receivers: WebhookReceiver[];
  receiver(options?: WebhookReceiverOptions): Promise<WebhookReceiver>;
  /** Creates a webhook through the API; when given a receiver, hands it the secret. */
  addWebhook(target: WebhookReceiver | string, flags?: Flags, auth?: Auth): Promise<{ webhookKey: string; secret: string }>;
  createContract(options?: { send?: boolean; auth?: Auth; name?: string }): Promise<string>;
  /** Emits a contract event straight on the bus, as the lifecycle does. */
  emit(type: ContractEventType, data: { contractKey: string; recipientKey?: string; status: string; clientKey?: string }, cause?: string): ContractEvent;
  /** Waits until every delivery attempt and timer callback in flight has finished. */
  settled(): Promise<void>;
  advance(ms: number): Promise<void>;
  deliveries(query?: string): Promise<any[]>;
  close(): Promise<void>;
}

let seq = 0;

export async function webhookHarness(options: SandboxOptions = {}): Promise<WebhookHarness> {
  const t = await testSandbox(options);
  const auth = await t.demoAuth();
  const receivers: WebhookReceiver[] = [];
  const { clock, bus, store } = t.sandbox.services;
  const h: WebhookHarness = {
    t,
    auth,
    receivers,
    async receiver(opts) {
      const r = await createWebhookReceiver(opts);
      receivers.push(r);
      return r;
    },
    async addWebhook(target, flags = ALL_FLAGS, as = auth) {
      const url = typeof target === 'string' ? target : target.url;
      const res = await t.post('/api/webhook', { data: { action: 'create', webhooks: [{ url, ...flags }] } }, as);
      if (res.status !== 201) throw new Error(`webhook create: ${res.status} ${JSON.stringify(res.body)}`);
      const { webhookKey, secret } = res.body.webhooks[0];
      if (typeof target !== 'string') target.useSecret(secret);
      return { webhookKey, secret };
    },
    async createContract({ send = false, auth: as = auth, name = `Contract ${++seq}` } = {}) {
      const res = await t.post(
        '/api/contract',
        {
          data: {
            action: 'create',
            contract: { name, value: '<p>Terms</p>' },
            ...(send ? { recipients: [{ fullname: 'Grace Hopper', email: 'grace@example.com', action: 'sign' }] } : {}),
          },
        },
        as,
      );
      if (res.status !== 201) throw new Error(`contract create: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.contract.contractKey as string;
    },
    emit(type, data, cause = 'test') {
      const clientKey = data.clientKey ?? DEMO.clientKey;
      const event: ContractEvent = {
        id: `msg_test${++seq}`,
        type,
        timestamp: new Date(clock.now()).toISOString(),
        data: { ...data, clientKey },
        platformId: store.clients.get(clientKey)!.platformId,
        cause,
      };
      bus.emit(event);
      return event;
    },
    settled: () => clock.work.settled(),
    advance: (ms) => clock.advance(ms),
    async deliveries(query = '') {
      const res = await t.control(`/webhook-deliveries${query}`);
      if (res.status !== 200) throw new Error(`deliveries: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.deliveries;
    },
    async close() {
      await t.close();
      await Promise.all(receivers.map((r) => r.close()));
    },
  };
  return h;
}

/** A TCP server that accepts connections and never answers: a receiver that is down but not refusing. */
export async function blackHole(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A URL on which nothing listens: connections are refused. */
export async function refusedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/hooks`;
}

/** Shared set-up for the webhook tests: a sandbox, a client token, real receivers, and API shortcuts. */
import { type IncomingMessage, type Server as HttpServer, createServer as createHttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { monotonicNow } from '../../src/core/wall-time.js';
import type { RunningSandbox } from '../../src/index.js';
import type { SandboxOptions } from '../../src/config/options.js';
import type { ContractEvent } from '../../src/core/events.js';
import type { ContractEventType, ContractStatus } from '../../src/core/vocabulary.js';
import {
  type WebhookReceiver,
  type WebhookReceiverOptions,
  createWebhookReceiver,
} from '../../src/testing/webhook-receiver.js';
import { type Auth, DEMO, type TestSandbox, testSandbox } from './helpers.js';

export type Flags = Partial<Record<'created' | 'sent' | 'seen' | 'signed' | 'approved' | 'fullySigned', boolean>>;
/** A webhook subscribed to every contract event. */
export const ALL_FLAGS: Flags = {
  created: true,
  sent: true,
  seen: true,
  signed: true,
  approved: true,
  fullySigned: true,
};

export interface WebhookHarness {
  t: TestSandbox;
  auth: Auth;
  receivers: WebhookReceiver[];
  receiver(options?: WebhookReceiverOptions): Promise<WebhookReceiver>;
  /** Creates a webhook through the API; when given a receiver, hands it the secret. */
  addWebhook(
    target: WebhookReceiver | string,
    flags?: Flags,
    auth?: Auth,
  ): Promise<{ webhookKey: string; secret: string }>;
  createContract(options?: { send?: boolean; auth?: Auth; name?: string }): Promise<string>;
  /** Emits a contract event straight on the bus, as the lifecycle does. */
  emit(
    type: ContractEventType,
    data: { contractKey: string; recipientKey?: string; status: ContractStatus; clientKey?: string },
    cause?: string,
  ): ContractEvent;
  /** Waits until every delivery attempt and timer callback in flight has finished. */
  settled(): Promise<void>;
  advance(ms: number): Promise<void>;
  deliveries(query?: string): Promise<any[]>;
  close(): Promise<void>;
}

/** Registers `receiver` as a webhook of the client `auth` names, for every event, and gives it the secret. */
export async function subscribe(t: TestSandbox, receiver: WebhookReceiver, auth: Auth): Promise<void> {
  const hook = await t.post(
    '/api/webhook',
    { data: { action: 'create', webhooks: [{ url: receiver.url, ...ALL_FLAGS }] } },
    auth,
  );
  receiver.useSecret(hook.body.webhooks[0].secret);
}

let seq = 0;

export async function webhookHarness(options: SandboxOptions = {}): Promise<WebhookHarness> {
  const t = await testSandbox(options);
  const auth = await t.demoAuth();
  const receivers: WebhookReceiver[] = [];
  const { clocks, bus, store } = t.sandbox.services;
  const clock = clocks.sandbox;
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

/** One request as a production handler saw it. */
export interface ProductionSeen {
  id: string;
  /** `webhook-timestamp` (unix seconds). */
  timestamp: number;
  body: string;
  verified: boolean;
  /** What `Webhook.verify` threw, when it did. */
  error?: string;
  type?: string;
  contractKey?: string;
  /** Payload `timestamp` (sandbox time of the event). */
  eventTime?: string;
  answered: number;
  /** monotonicNow() when the request arrived. */
  arrivedAt: number;
}

export interface ProductionReceiver {
  url: string;
  seen: ProductionSeen[];
  useSecret(secret: string): void;
  /** Answer 500 to the next `count` verified requests. */
  failNext(count: number): void;
  close(): Promise<void>;
}

/**
 * A receiver written as production code is: `new Webhook(secret).verify(rawBody, headers)` from the public
 * `standardwebhooks` package, unmodified (its 5-minute tolerance against wall time included); 401 when it throws,
 * else 200 (or 500 while told to fail). A real HTTP server on 127.0.0.1.
 */
export async function productionReceiver(): Promise<ProductionReceiver> {
  let secret = '';
  let failing = 0;
  const seen: ProductionSeen[] = [];
  const server: HttpServer = createHttpServer(async (req: IncomingMessage, res) => {
    const arrivedAt = monotonicNow();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const headers = req.headers as Record<string, string>;
    const entry: ProductionSeen = {
      id: headers['webhook-id'] ?? '',
      timestamp: Number(headers['webhook-timestamp']),
      body,
      verified: false,
      answered: 0,
      arrivedAt,
    };
    try {
      const event = new Webhook(secret).verify(body, headers) as {
        type: string;
        timestamp: string;
        data: { contractKey: string };
      };
      entry.verified = true;
      entry.type = event.type;
      entry.contractKey = event.data.contractKey;
      entry.eventTime = event.timestamp;
    } catch (error) {
      entry.error = (error as Error).message;
      const unverified = JSON.parse(body) as { type: string; data: { contractKey: string } };
      entry.type = unverified.type;
      entry.contractKey = unverified.data.contractKey;
    }
    entry.answered = !entry.verified ? 401 : failing > 0 ? (failing--, 500) : 200;
    seen.push(entry);
    res.writeHead(entry.answered).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`,
    seen,
    useSecret: (value) => {
      secret = value;
    },
    failNext: (count) => {
      failing += count;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The public API of a sandbox started with startSandbox(), over HTTP, as a client would call it. */
export function publicApi(running: RunningSandbox) {
  const call = async (path: string, data: unknown, token?: string): Promise<any> => {
    const res = await fetch(`${running.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ data }),
    });
    return res.json();
  };
  const token = async () =>
    (await call('/api/token', { action: 'create', apiKey: running.apiKey, secret: running.secret }))
      .access_token as string;
  return {
    call,
    token,
    /** Creates a webhook for the sandbox's client; hands the receiver its secret. */
    async addWebhook(
      receiver: { url: string; useSecret(secret: string): void },
      flags: Flags = ALL_FLAGS,
    ): Promise<{ webhookKey: string; secret: string }> {
      const res = await call(
        '/api/webhook',
        { action: 'create', clientKey: running.clientKey, webhooks: [{ url: receiver.url, ...flags }] },
        await token(),
      );
      if (!res.webhooks) throw new Error(`webhook create: ${JSON.stringify(res)}`);
      receiver.useSecret(res.webhooks[0].secret);
      return { webhookKey: res.webhooks[0].webhookKey, secret: res.webhooks[0].secret };
    },
    /** Creates a contract (and sends it, with one signer, when `send`); returns its key. */
    async createContract(send = false): Promise<string> {
      const res = await call(
        '/api/contract',
        {
          action: 'create',
          clientKey: running.clientKey,
          contract: { name: `Contract ${++seq}`, value: '<p>Terms</p>' },
          ...(send ? { recipients: [{ fullname: 'Grace Hopper', email: 'grace@example.com', action: 'sign' }] } : {}),
        },
        await token(),
      );
      if (!res.contract) throw new Error(`contract create: ${JSON.stringify(res)}`);
      return res.contract.contractKey as string;
    },
  };
}

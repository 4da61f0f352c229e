/**
 * A webhook receiver for tests: a small HTTP server on a free port that checks each delivery's Standard
 * Webhooks signature with the webhook's secret, records what arrived, and can be told to fail the next
 * attempts so a test can drive the sandbox's retries.
 *
 *   const receiver = await createWebhookReceiver();
 *   // create a webhook with url: receiver.url, then: receiver.useSecret(secret)
 *   await receiver.waitFor(1);
 *   receiver.deliveries[0].payload.type // 'contract.created'
 *   await receiver.close();
 *
 * The signature is checked as the `standardwebhooks` library checks it: the HMAC with the webhook's secret, and
 * `webhook-timestamp` within `toleranceSeconds` (300) of wall time. The sandbox signs every attempt with wall time
 * (the sandbox time of the event is the payload's `timestamp`), so deliveries verify whatever the sandbox clock
 * says. A `now` option checks the timestamp against another clock instead.
 */
import { timingSafeEqual } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { wallNow } from '../core/wall-time.js';

export interface ReceivedDelivery {
  /** `webhook-id`: the same on every retry and redelivery of one event. */
  id: string;
  /** `webhook-timestamp`: unix seconds of wall time when the attempt was signed (the payload's `timestamp` is sandbox time). */
  timestamp: number;
  signature: string;
  headers: Record<string, string>;
  /** The raw body, exactly as sent (verify signatures against this, never a re-serialised object). */
  body: string;
  /** The parsed body: `{type, timestamp, data}`. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read any field of the payload they expect
  payload: any;
  /** Whether the signature matched the secret (false when no secret was set yet). */
  verified: boolean;
  /** Why verification failed, when it did. */
  verifyError?: string;
  /** What the receiver answered. */
  answeredStatus: number | 'hung-up' | 'no-answer';
  /** An earlier delivery had the same `webhook-id` (a retry or redelivery of the same event). */
  duplicate: boolean;
}

export interface FailureMode {
  /** Status to answer with (default 500). */
  status?: number;
  /** Retry-After header value to send along (seconds). */
  retryAfter?: number;
  /** Never answer (the sandbox times out); the connection is closed when the receiver closes. */
  hang?: boolean;
  /** Drop the connection without answering. */
  hangUp?: boolean;
}

export interface WebhookReceiverOptions {
  /** The webhook's `whsec_…` secret; may also be given later with `useSecret` (the URL comes first). */
  secret?: string;
  /** Port to listen on (default 0: a free port). */
  port?: number;
  host?: string;
  /** Path the receiver answers on (default `/webhooks`); other paths answer 404. */
  path?: string;
  /** Reject unverified deliveries with 401 (default true), as a real handler should. */
  rejectUnverified?: boolean;
  /**
   * The clock `webhook-timestamp` is checked against, epoch ms (default: wall time, as `standardwebhooks` and `svix`
   * do). Timestamps more than `toleranceSeconds` away from it fail verification with 'timestamp outside tolerance'.
   */
  now?: () => number;
  /** Default 300 (five minutes, the public verifiers' tolerance). */
  toleranceSeconds?: number;
}

export interface WebhookReceiver {
  /** Full URL to register as the webhook's url. */
  readonly url: string;
  readonly port: number;
  /** Every request received, in arrival order (failed and rejected ones included). */
  readonly deliveries: ReceivedDelivery[];
  /** Deliveries answered 2xx, one per `webhook-id` (what an idempotent handler would have processed). */
  accepted(): ReceivedDelivery[];
  useSecret(secret: string): void;
  /** The next `count` requests fail this way (default: answer 500). */
  failNext(count: number, mode?: FailureMode): void;
  /** Resolves once `count` requests have arrived (or the predicate holds), checked on every arrival. */
  waitFor(count: number | ((deliveries: ReceivedDelivery[]) => boolean)): Promise<ReceivedDelivery[]>;
  /** Forgets recorded deliveries and pending failures. */
  clear(): void;
  close(): Promise<void>;
}

export async function createWebhookReceiver(options: WebhookReceiverOptions = {}): Promise<WebhookReceiver> {
  const path = options.path ?? '/webhooks';
  const host = options.host ?? '127.0.0.1';
  const rejectUnverified = options.rejectUnverified ?? true;
  const tolerance = options.toleranceSeconds ?? 300;
  const now = options.now ?? wallNow;
  let secret = options.secret;
  const deliveries: ReceivedDelivery[] = [];
  const failures: FailureMode[] = [];
  const seen = new Set<string>();
  const waiters = new Set<() => void>();

  const receive = async (req: IncomingMessage, res: ServerResponse) => {
    const arrival = await readArrival(req);
    if (req.method !== 'POST' || (req.url ?? '/').split('?')[0] !== path) return void res.writeHead(404).end();
    const verifyError = signatureProblem(arrival, secret, now, tolerance);
    const delivery = recordOf(arrival, verifyError, seen.has(arrival.id));
    seen.add(arrival.id);
    delivery.answeredStatus = answer(req, res, failures.shift(), verifyError, rejectUnverified);
    deliveries.push(delivery);
    for (const wake of [...waiters]) wake();
  };

  const server: Server = createServer((req, res) => {
    receive(req, res).catch(() => res.destroy());
  });
  const port = await listen(server, options.port ?? 0, host);
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}${path}`,
    port,
    deliveries,
    accepted: () => acceptedOnce(deliveries),
    useSecret(value) {
      secret = value;
    },
    failNext(count, mode = {}) {
      for (let i = 0; i < count; i++) failures.push(mode);
    },
    waitFor: (condition) => waitUntil(deliveries, waiters, condition),
    clear() {
      deliveries.length = 0;
      failures.length = 0;
      seen.clear();
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** A request as it came: its body and headers (a header given twice reads as one, joined with ", "). */
interface Arrival {
  id: string;
  timestamp: string;
  signature: string;
  headers: Record<string, string>;
  body: string;
}

async function readArrival(req: IncomingMessage): Promise<Arrival> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = Object.fromEntries(
    Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
  );
  return {
    id: headers['webhook-id'] ?? '',
    timestamp: headers['webhook-timestamp'] ?? '',
    signature: headers['webhook-signature'] ?? '',
    headers,
    body: Buffer.concat(chunks).toString('utf8'),
  };
}

/** Why a request's signature does not verify with `secret` at `now` (epoch ms), or undefined when it does. */
function signatureProblem(
  { id, timestamp, signature, body }: Arrival,
  secret: string | undefined,
  now: () => number,
  toleranceSeconds: number,
): string | undefined {
  if (!secret) return 'no secret set (call useSecret)';
  if (!id || !timestamp || !signature) return 'missing webhook-id, webhook-timestamp or webhook-signature';
  const seconds = Number(timestamp);
  if (!/^\d+$/.test(timestamp)) return 'webhook-timestamp is not unix seconds';
  if (Math.abs(Math.floor(now() / 1000) - seconds) > toleranceSeconds) return 'timestamp outside tolerance';
  let expected: Buffer;
  try {
    expected = Buffer.from(new Webhook(secret).sign(id, new Date(seconds * 1000), body).split(',')[1] ?? '', 'base64');
  } catch (error) {
    return `cannot use the secret: ${(error as Error).message}`;
  }
  for (const candidate of signature.split(' ')) {
    const [version, value] = candidate.split(',');
    if (version !== 'v1' || !value) continue;
    const given = Buffer.from(value, 'base64');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return undefined;
  }
  return 'no matching signature';
}

/** What the receiver keeps of a request (answered 200 until `answer` says otherwise). */
function recordOf(arrival: Arrival, verifyError: string | undefined, duplicate: boolean): ReceivedDelivery {
  let payload: unknown;
  try {
    payload = JSON.parse(arrival.body);
  } catch {
    payload = undefined;
  }
  return {
    id: arrival.id,
    timestamp: Number(arrival.timestamp),
    signature: arrival.signature,
    headers: arrival.headers,
    body: arrival.body,
    payload,
    verified: verifyError === undefined,
    ...(verifyError !== undefined ? { verifyError } : {}),
    answeredStatus: 200,
    duplicate,
  };
}

/** Answers a delivery (or hangs, or hangs up) as the failure told, else 200, or 401 when it does not verify. */
function answer(
  req: IncomingMessage,
  res: ServerResponse,
  failure: FailureMode | undefined,
  verifyError: string | undefined,
  rejectUnverified: boolean,
): ReceivedDelivery['answeredStatus'] {
  if (failure?.hang) return 'no-answer';
  if (failure?.hangUp) {
    req.socket.destroy();
    return 'hung-up';
  }
  const status = failure ? (failure.status ?? 500) : verifyError !== undefined && rejectUnverified ? 401 : 200;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (failure?.retryAfter !== undefined) headers['retry-after'] = String(failure.retryAfter);
  res
    .writeHead(status, headers)
    .end(JSON.stringify(status < 300 ? { received: true } : { error: verifyError ?? 'failing on purpose' }));
  return status;
}

/** Listens, and tells the port listened on. */
function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Deliveries answered 2xx, the first of each `webhook-id`. */
function acceptedOnce(deliveries: ReceivedDelivery[]): ReceivedDelivery[] {
  const out = new Map<string, ReceivedDelivery>();
  for (const d of deliveries) {
    if (typeof d.answeredStatus === 'number' && d.answeredStatus >= 200 && d.answeredStatus < 300 && !out.has(d.id))
      out.set(d.id, d);
  }
  return [...out.values()];
}

/** Resolves once `condition` holds, checked now and whenever a waiter is woken (on every arrival). */
function waitUntil(
  deliveries: ReceivedDelivery[],
  waiters: Set<() => void>,
  condition: number | ((deliveries: ReceivedDelivery[]) => boolean),
): Promise<ReceivedDelivery[]> {
  const done = () => (typeof condition === 'number' ? deliveries.length >= condition : condition(deliveries));
  if (done()) return Promise.resolve(deliveries);
  return new Promise((resolve) => {
    const wake = () => {
      if (!done()) return;
      waiters.delete(wake);
      resolve(deliveries);
    };
    waiters.add(wake);
  });
}

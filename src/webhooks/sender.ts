/**
 * One delivery attempt: sign the body the Standard Webhooks way and POST it. The signature is the HMAC-SHA256 the
 * `standardwebhooks` library computes, done with node:crypto: the library's own `sign` hashes in JavaScript
 * (fast-sha256), 12-14 µs an attempt against 2 µs, about 5 % of the sandbox's CPU in the 1,000-event fan-out of
 * docs/benchmarks.md. The tests verify every attempt with the library unmodified, and that both sign alike.
 *
 * Two times are involved (docs/webhooks.md): the request is signed with **wall time** (`signedAt`), because the
 * receiver's verifier compares `webhook-timestamp` with its own clock (5 minutes' tolerance); the sandbox time of
 * the attempt (`at`) only reads a `Retry-After` date. The event's sandbox time travels in the payload's `timestamp`.
 */
import { createHash, createHmac } from 'node:crypto';
import { type ClientRequest, Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { elapsedSince, monotonicNow } from '../core/wall-time.js';
import { parseRetryAfter } from './schedule.js';

/** How a receiver fault spoils the signature: signed with another secret, a corrupted signature, or none at all. */
export type SignatureFault = 'wrong-secret' | 'corrupted' | 'missing';

export interface SignedRequest {
  url: string;
  secret: string;
  webhookId: string;
  /** Sandbox time of the attempt, epoch ms: reads a Retry-After date. */
  at: number;
  /** Wall time to sign with, epoch ms (sent as unix seconds in `webhook-timestamp`). */
  signedAt: number;
  /** Spoil the signature on purpose (a receiver fault). */
  badSignature?: SignatureFault | undefined;
  body: string;
  timeoutMs: number;
  userAgent: string;
  /** `traceparent` and `tracestate`, when the delivery has a trace. */
  traceHeaders?: Record<string, string> | undefined;
}

export interface AttemptOutcome {
  ok: boolean;
  statusCode?: number;
  error?: string;
  retryAfterMs?: number;
  durationMs: number;
}

/** The Standard Webhooks headers for `body`, signed at `at` (epoch ms, sent as unix seconds). */
export function signatureHeaders(secret: string, webhookId: string, at: number, body: string): Record<string, string> {
  const timestamp = Math.floor(at / 1000);
  return {
    'webhook-id': webhookId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': `v1,${createHmac('sha256', secretKey(secret)).update(`${webhookId}.${timestamp}.`).update(body).digest('base64')}`,
  };
}

/** Strict base64 (the alphabet, padded to a multiple of 4), as the library's decoder takes it. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The HMAC key of a `whsec_…` secret: its base64 part decoded; a secret the library would refuse throws, as it does. */
function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  if (encoded === '' || !BASE64.test(encoded)) throw new Error('Webhook secret is not base64 (whsec_ + base64)');
  return Buffer.from(encoded, 'base64');
}

/** Headers a correct verifier must refuse: as `signatureHeaders`, with the signature spoilt the given way. */
export function faultySignatureHeaders(
  secret: string,
  webhookId: string,
  at: number,
  body: string,
  how: SignatureFault,
): Record<string, string> {
  if (how === 'wrong-secret') return signatureHeaders(wrongSecret(secret), webhookId, at, body);
  const headers = signatureHeaders(secret, webhookId, at, body);
  if (how === 'missing') {
    delete headers['webhook-signature'];
    return headers;
  }
  const [version, value] = headers['webhook-signature']!.split(',') as [string, string];
  const bytes = Buffer.from(value, 'base64');
  bytes[0] = bytes[0]! ^ 0xff;
  headers['webhook-signature'] = `${version},${bytes.toString('base64')}`;
  return headers;
}

/** A well-formed `whsec_` secret that is not the webhook's: derived from it, so runs repeat exactly. */
function wrongSecret(secret: string): string {
  return `whsec_${createHash('sha256').update(`esign-sandbox wrong secret:${secret}`).digest().subarray(0, 24).toString('base64')}`;
}

/**
 * Posts signed attempts with node:http (https), not fetch(): through fetch() a POST and its answer cost about five
 * times the CPU (web streams, a copy of the body for redirects it does not follow, a resource-timing entry): 575-1,150
 * against 95-250 µs here (docs/benchmarks.md, the fan-out row). fetch() also refuses the ports of the Fetch standard's
 * "bad ports" list (9, 6000, 6665-6669, 10080…) without trying; a receiver may listen on any of them, as the service
 * posts to any.
 *
 * Each sandbox has its own: its connections to receivers are kept open between attempts (as fetch() kept them),
 * closed after 4 s idle, before a receiver's usual 5 s keep-alive ends them; idle ones never hold the process open,
 * `abort()` ends the attempts in flight and `close()` (the sandbox's stop) ends the connections.
 */
export class Sender {
  private readonly agents = {
    'http:': new HttpAgent({ keepAlive: true, timeout: 4000 }),
    'https:': new HttpsAgent({ keepAlive: true, timeout: 4000 }),
  };
  /** How to end each attempt in flight, for `abort()` (one set, not a listener on a signal per attempt). */
  private readonly ending = new Set<() => void>();
  private aborted = false;

  /** One attempt. Never rejects; a redirect is an answer like any other, not followed. */
  post(req: SignedRequest): Promise<AttemptOutcome> {
    const started = monotonicNow();
    return new Promise<AttemptOutcome>((resolve) => {
      let sending: ClientRequest | undefined;
      // The timeout covers the whole exchange, body included: a receiver that never finishes is as dead as one that
      // never answers. A real timer, whatever the sandbox clock does.
      const timer = setTimeout(
        () => end({ ok: false, error: `timeout: no answer within ${req.timeoutMs} ms` }),
        req.timeoutMs,
      );
      const onAbort = () => end({ ok: false, error: 'aborted: the sandbox closed' });
      const end = (outcome: Omit<AttemptOutcome, 'durationMs'>): void => {
        clearTimeout(timer);
        this.ending.delete(onAbort);
        sending?.destroy();
        sending = undefined;
        resolve({ ...outcome, durationMs: elapsedSince(started) });
      };
      if (this.aborted) return onAbort();
      const url = new URL(req.url);
      const agent = url.protocol === 'http:' || url.protocol === 'https:' ? this.agents[url.protocol] : undefined;
      // As fetch() refused them: credentials in a receiver URL are never sent.
      if (!agent || url.username || url.password)
        return end({ ok: false, error: `cannot post to ${withoutCredentials(url)}: not a plain http(s) URL` });
      this.ending.add(onAbort);
      const body = Buffer.from(req.body, 'utf8');
      const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
      sending = request(url, { method: 'POST', agent, headers: requestHeaders(req, body.length) }, (res) => {
        res.on('error', (error) => end({ ok: false, error: describeFailure(error) }));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          const retryAfterMs =
            status === 429 || status === 503 ? parseRetryAfter(res.headers['retry-after'], req.at) : undefined;
          sending = undefined; // answered in full: the connection goes back to the pool
          end({
            ok: status >= 200 && status < 300,
            statusCode: status,
            ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
          });
        });
        res.resume();
      });
      sending.on('error', (error) => end({ ok: false, error: describeFailure(error) }));
      sending.end(body);
    });
  }

  /** Ends the attempts in flight (each resolves as aborted) and refuses new ones: the sandbox is closing. */
  abort(): void {
    this.aborted = true;
    for (const onAbort of [...this.ending]) onAbort();
  }

  /** Ends every connection to receivers, idle or in use (attempts in flight have been aborted first). */
  close(): void {
    this.agents['http:'].destroy();
    this.agents['https:'].destroy();
  }
}

function requestHeaders(req: SignedRequest, length: number): Record<string, string> {
  return {
    'content-type': 'application/json',
    'content-length': String(length),
    'user-agent': req.userAgent,
    ...req.traceHeaders,
    ...(req.badSignature
      ? faultySignatureHeaders(req.secret, req.webhookId, req.signedAt, req.body, req.badSignature)
      : signatureHeaders(req.secret, req.webhookId, req.signedAt, req.body)),
  };
}

function withoutCredentials(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

function describeFailure(error: unknown): string {
  const err = error as { code?: string; message?: string };
  // The receiver closed the connection without an answer.
  if (err.message === 'socket hang up') return 'connection closed by the receiver';
  const known: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'connection reset by the receiver',
    ENOTFOUND: 'host not found',
    EAI_AGAIN: 'host not found (DNS lookup failed)',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable',
  };
  return (err.code && known[err.code]) || (err.message ?? String(error));
}

/**
 * One delivery attempt: sign the body the Standard Webhooks way and POST it. The signature comes from the
 * `standardwebhooks` library itself, so what the sandbox sends is by construction what public verifiers check.
 *
 * Two times are involved (docs/webhooks.md): the request is signed with **wall time** (`signedAt`), because the
 * receiver's verifier compares `webhook-timestamp` with its own clock (5 minutes' tolerance); the sandbox time of
 * the attempt (`at`) only reads a `Retry-After` date. The event's sandbox time travels in the payload's `timestamp`.
 */
import { createHash } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { elapsedSince, monotonicNow } from '../core/clock.js';
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
  /** Aborted when the sandbox closes. */
  signal: AbortSignal;
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
    'webhook-signature': new Webhook(secret).sign(webhookId, new Date(timestamp * 1000), body),
  };
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

export async function postSigned(req: SignedRequest): Promise<AttemptOutcome> {
  const started = monotonicNow();
  const timeout = AbortSignal.timeout(req.timeoutMs);
  const signal = eitherAborts(timeout, req.signal);
  try {
    const res = await fetch(req.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': req.userAgent,
        ...req.traceHeaders,
        ...(req.badSignature
          ? faultySignatureHeaders(req.secret, req.webhookId, req.signedAt, req.body, req.badSignature)
          : signatureHeaders(req.secret, req.webhookId, req.signedAt, req.body)),
      },
      body: req.body,
      // A redirect is an answer that is not 2xx: the service does not follow it, so neither does the sandbox.
      redirect: 'manual',
      signal: signal.signal,
    });
    // The timeout covers the whole exchange, body included, as a receiver that never finishes is as dead as one that never answers.
    await res.arrayBuffer();
    const ok = res.status >= 200 && res.status < 300;
    const retryAfterMs =
      res.status === 429 || res.status === 503 ? parseRetryAfter(res.headers.get('retry-after'), req.at) : undefined;
    return {
      ok,
      statusCode: res.status,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      durationMs: elapsedSince(started),
    };
  } catch (error) {
    return { ok: false, error: describeFailure(error, timeout, req.timeoutMs), durationMs: elapsedSince(started) };
  } finally {
    signal.release();
  }
}

/**
 * A signal that aborts when either of two does. Not `AbortSignal.any`: on Node 20 every call leaves a record
 * behind on the long-lived source signal (the sandbox's close signal) that is never freed, so a long run of
 * deliveries grew the heap by ~60 bytes per attempt (found by test/http/soak.test.ts).
 */
function eitherAborts(a: AbortSignal, b: AbortSignal): { signal: AbortSignal; release(): void } {
  const controller = new AbortController();
  const onAbort = (event: Event) => controller.abort((event.target as AbortSignal).reason);
  for (const source of [a, b]) {
    if (source.aborted) controller.abort(source.reason);
    else source.addEventListener('abort', onAbort, { once: true });
  }
  return {
    signal: controller.signal,
    release() {
      a.removeEventListener('abort', onAbort);
      b.removeEventListener('abort', onAbort);
    },
  };
}

function describeFailure(error: unknown, timeout: AbortSignal, timeoutMs: number): string {
  if (timeout.aborted) return `timeout: no answer within ${timeoutMs} ms`;
  const err = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (err.name === 'AbortError') return 'aborted: the sandbox closed';
  const code = err.cause?.code;
  const known: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'connection reset by the receiver',
    ENOTFOUND: 'host not found',
    EAI_AGAIN: 'host not found (DNS lookup failed)',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable',
    UND_ERR_SOCKET: 'connection closed by the receiver',
  };
  if (code && known[code]) return known[code];
  return err.cause?.message ?? err.message ?? String(error);
}

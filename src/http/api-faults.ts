/**
 * The API-faults middleware, mounted on /api/* (known paths or not): what runs on every /api request first. It asks the fault registry
 * (api-faults/registry.ts) what the request meets, waits out the latency and answers with the fault's refusal, breaks
 * the connection (http/connection.ts) or trickles the real answer.
 *
 * Latency and dribble are real time, not sandbox time: they model a slow network, which a client experiences in wall
 * time. This is the one place besides the clock that arms wall-clock timers, on purpose.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { ApiFaults, BrokenConnection, FaultDecision } from '../api-faults/registry.js';
import type { RequestEnv } from '../domain/request-facts.js';
import { discardBody, readRequestBody } from './body.js';
import { breakConnection, breakMidBody } from './connection.js';

/** Bodies are read within `maxBodyBytes`; a refusal is thrown as the fault's ApiError, rendered like any other. */
export interface FaultMiddlewareOptions {
  maxBodyBytes: number;
}

export function faultMiddleware(faults: ApiFaults, options: FaultMiddlewareOptions): MiddlewareHandler<RequestEnv> {
  // Not an async function: with no fault set (the common case) the request goes on without a promise of its own.
  return (c, next) => (faults.size > 0 ? apply(c, next, faults, options) : next());
}

async function apply(
  c: Context<RequestEnv>,
  next: () => Promise<void>,
  faults: ApiFaults,
  options: FaultMiddlewareOptions,
): Promise<Response | undefined> {
  const decision = await decide(c, faults, options);
  if (decision.hit !== undefined) c.header('X-Sandbox-Fault', decision.hit);
  if (decision.latencyMs > 0) await wait(decision.latencyMs);
  if (decision.refusal) throw decision.refusal;
  if (decision.broken) return broken(c, next, decision.broken);
  await next();
  if (decision.dribbleMs > 0) c.res = await dribbled(c.res, decision.dribbleMs);
  return undefined;
}

async function decide(
  c: Context<RequestEnv>,
  faults: ApiFaults,
  options: FaultMiddlewareOptions,
): Promise<FaultDecision> {
  const interest = faults.interest(c.req.path);
  if (!interest.any) return { latencyMs: 0, dribbleMs: 0 };
  // Read through the shared body reader (the travel object's body, read once; the route finds it). Size and cut-off
  // refusals propagate: the route would answer the same.
  const body = interest.needsBody || interest.needsTenant ? await readRequestBody(c, options.maxBodyBytes) : undefined;
  // A fault set for a tenant hits only that tenant's requests (its credentials, or the share link it names).
  const tenant = interest.needsTenant ? body?.tenant : undefined;
  return faults.decide(c.req.path, body, tenant);
}

/**
 * A connection fault. `reset`, `empty` and `garbage` stand for a request that never reached the service: the route
 * does not run (as with a fault's status), and the journal records status 0. `malformed-chunk` breaks the real
 * answer, so the operation ran (docs/scenarios.md, "Connection faults").
 */
async function broken(c: Context<RequestEnv>, next: () => Promise<void>, fault: BrokenConnection): Promise<Response> {
  if (fault.kind === 'malformed-chunk') {
    await next();
    // The route has answered (the context is finalized): the broken answer replaces it, a returned one would not.
    c.res = await breakMidBody(c, c.res, fault.fault);
    return c.res;
  }
  c.set('unanswered', fault.kind);
  // The whole request is read first, for every kind: a socket closed on bytes it has not read sends a reset, not the
  // close `empty` and `garbage` mean; and a reset that came while the client still sent its body would fail its send
  // (urllib's URLError, an EPIPE) on some runs and its wait for the answer on others.
  await discardBody(c.req.raw).catch(() => undefined);
  return breakConnection(c, fault);
}

/** How many pieces a dribbled body is sent in (fewer when it has fewer bytes). */
const DRIBBLE_PIECES = 10;

/**
 * The answer with the same status and headers (its Content-Length said), its body in DRIBBLE_PIECES pieces: the first
 * at once, each next one a gap after the previous was taken, so that the last leaves `ms` after the first. A client
 * that goes away stops the rest.
 */
async function dribbled(answer: Response, ms: number): Promise<Response> {
  const bytes = new Uint8Array(await answer.arrayBuffer());
  const count = Math.min(DRIBBLE_PIECES, bytes.byteLength);
  const gap = ms / Math.max(1, count - 1);
  let sent = 0;
  let timer: NodeJS.Timeout | undefined;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent > 0) await new Promise((resolve) => (timer = setTimeout(resolve, gap)));
      const from = Math.floor((sent * bytes.byteLength) / count);
      controller.enqueue(bytes.subarray(from, Math.floor(((sent + 1) * bytes.byteLength) / count)));
      if (++sent === count) controller.close();
    },
    cancel() {
      clearTimeout(timer);
    },
  });
  const headers = new Headers(answer.headers);
  headers.set('content-length', String(bytes.byteLength));
  return new Response(count === 0 ? null : body, { status: answer.status, headers });
}

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

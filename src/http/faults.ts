/**
 * The API-faults gate: what runs on every /api request before its handler. It asks the fault registry
 * (faults/faults.ts) what the request meets, waits out the latency and answers with the fault's refusal.
 *
 * Latency is real time, not sandbox time: it models a slow network, which a client experiences in wall time.
 * It is the one place besides the clock that arms a wall-clock timer, on purpose.
 */
import type { Context } from 'hono';
import type { Faults } from '../faults/faults.js';
import { readBodyText } from './body.js';

/** Runs before an /api handler: nothing to wait for, or a promise to await (it may reject with an ApiError). */
export type ApiGate = (c: Context) => Promise<void> | undefined;

/** Bodies are read within `maxBodyBytes`; with no fault set (the usual case) a request costs one length check. */
export function faultGate(faults: Faults, maxBodyBytes: number): ApiGate {
  return (c) => (faults.size === 0 ? undefined : apply(c, faults, maxBodyBytes));
}

async function apply(c: Context, faults: Faults, maxBodyBytes: number): Promise<void> {
  const interest = faults.interest(c.req.path);
  if (!interest.any) return;
  const body = interest.needsBody ? await peekBody(c.req.raw, maxBodyBytes) : undefined;
  const { latencyMs, hit, refusal } = faults.decide(c.req.path, body);
  if (hit !== undefined) c.header('X-Sandbox-Fault', hit);
  if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
  if (refusal) throw refusal;
}

/**
 * The body as JSON, or `undefined` when it is not JSON. Read through the shared body reader, which keeps the text
 * for the router, so the body is read once. Size and cut-off refusals propagate: the router would answer the same.
 */
async function peekBody(request: Request, maxBodyBytes: number): Promise<unknown> {
  const text = await readBodyText(request, maxBodyBytes);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * An attempt's span (docs/webhooks.md, "Traces"): a child of the delivery's trace, the `traceparent` and
 * `tracestate` headers that name it, and its end with what the receiver (or an outage) answered. Kept apart from
 * the dispatcher so that its attempt reads as the steps of one delivery, not as tracing detail.
 */
import { type SpanHandle, type Tracer, traceparent } from '../core/trace-context.js';
import type { AttemptTrigger, Delivery } from './delivery.js';
import type { AttemptOutcome } from './sender.js';

export interface AttemptSpan {
  handle: SpanHandle;
  headers: Record<string, string>;
}

/**
 * The span of the attempt about to start; none for a delivery without a trace while tracing is off. With tracing
 * on, a delivery no traced request caused starts a trace at its first attempt, and its later attempts hang under
 * that one.
 */
export function attemptSpan(tracer: Tracer | undefined, d: Delivery, trigger: AttemptTrigger): AttemptSpan | undefined {
  if (!tracer || (!d.trace && !tracer.exporting)) return undefined;
  const handle = tracer.startSpan({
    name: `webhook ${d.event}`,
    kind: 'client',
    parent: d.trace,
    attributes: {
      'esign_sandbox.delivery.id': d.id,
      'esign_sandbox.delivery.attempt': d.attempts.length + 1,
      'esign_sandbox.delivery.trigger': trigger,
      'esign_sandbox.event': d.event,
      'url.full': withoutSecrets(d.url),
    },
  });
  const flags = d.trace?.flags ?? '01';
  d.trace ??= { traceId: handle.traceId, spanId: handle.spanId, flags };
  const headers: Record<string, string> = { traceparent: traceparent({ ...handle, flags }) };
  if (d.trace.tracestate) headers.tracestate = d.trace.tracestate;
  return { handle, headers };
}

/** Ends the span with the receiver's status or error; an outage's answer is marked as one (nothing was sent). */
export function endAttemptSpan(span: AttemptSpan, outcome: AttemptOutcome, simulated: boolean): void {
  span.handle.end({
    ...(outcome.statusCode !== undefined ? { status: outcome.statusCode } : {}),
    ...(outcome.error !== undefined ? { error: outcome.error } : {}),
    attributes: simulated ? { 'esign_sandbox.outage': true } : {},
  });
}

/** A receiver URL as a span shows it: no credentials, no query (a token may sit there), to a collector. */
function withoutSecrets(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

/**
 * W3C Trace Context (`traceparent`, `tracestate`): what an /api request carries into the webhook deliveries it
 * causes (docs/webhooks.md, "Traces"), and the spans the sandbox makes, exported only when tracing is on
 * (`Tracer.exporting`; the OTLP exporter in tracing/otlp.ts). The plain tracer below exports nothing: its spans are
 * ids, so a delivery attempt still gets a span id of its own.
 */
import { randomBytes } from 'node:crypto';

/** Where the sandbox's work hangs in a trace: the trace, the span it is a child of, the flags and vendors' state. */
export interface TraceContext {
  traceId: string;
  spanId: string;
  /** Two hex digits; `01` = sampled. */
  flags: string;
  tracestate?: string;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/**
 * A `traceparent` header as the W3C recommendation reads it: version 00 exactly, a later version's first four
 * fields; never version ff, an all-zero trace or parent id, or anything malformed (then none: the request
 * carries no trace). `tracestate` comes along only with a valid `traceparent`.
 */
export function parseTraceparent(header: string | undefined, tracestate?: string): TraceContext | undefined {
  const match = header === undefined ? null : TRACEPARENT.exec(header.trim());
  if (!match) return undefined;
  const [, version, traceId, spanId, flags, rest] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
    string?,
  ];
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  const state = tracestate?.trim();
  return { traceId, spanId, flags, ...(state ? { tracestate: state.slice(0, 512) } : {}) };
}

export function traceparent(trace: { traceId: string; spanId: string; flags: string }): string {
  return `00-${trace.traceId}-${trace.spanId}-${trace.flags}`;
}

function nonZeroHex(bytes: number): string {
  for (;;) {
    const hex = randomBytes(bytes).toString('hex');
    if (!/^0+$/.test(hex)) return hex;
  }
}

export const newTraceId = (): string => nonZeroHex(16);
export const newSpanId = (): string => nonZeroHex(8);

/** One span: its ids, and its end with what happened. */
export interface SpanHandle {
  readonly traceId: string;
  readonly spanId: string;
  end(outcome: { status?: number; error?: string; attributes?: Record<string, string | number | boolean> }): void;
}

export interface SpanStart {
  name: string;
  /** `server`: an /api request answered; `client`: a delivery attempt sent. */
  kind: 'server' | 'client';
  /** The span this one is a child of; none: the first span of a new trace. */
  parent: TraceContext | undefined;
  attributes: Record<string, string | number | boolean>;
}

/** What makes the sandbox's spans: ids only (the plain tracer), or spans exported over OTLP. */
export interface Tracer {
  /** Spans are exported: a request without a `traceparent` starts a trace of its own. */
  readonly exporting: boolean;
  startSpan(start: SpanStart): SpanHandle;
  /** Sends what is left to send. */
  close(): Promise<void>;
}

/** Tracing off: ids for the spans the deliveries name, nothing exported. */
export const plainTracer: Tracer = {
  exporting: false,
  startSpan: ({ parent }) => ({ traceId: parent?.traceId ?? newTraceId(), spanId: newSpanId(), end() {} }),
  close: async () => {},
};

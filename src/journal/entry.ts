/**
 * A request as the request journal shows it (GET /__sandbox/requests, docs/library.md "The request journal"): the
 * door it came through, its headers and bodies redacted, its answer.
 */
import type { RequestKind } from './filter.js';

export interface JournalEntry {
  /** Increasing number, unique within this sandbox's lifetime (also across resets). */
  id: number;
  /** Sandbox time when the request arrived. */
  at: string;
  /** The door it came through: /api, the control API, or a page. */
  kind: RequestKind;
  method: string;
  path: string;
  query?: string;
  /** The operation: `data.action`, `data.type` (settings) or a top-level `action` (token variants). */
  action?: string;
  /** 0 when an API fault broke the connection and no answer was sent (`connection: reset | empty | garbage`). */
  status: number;
  /** The API fault that hit it (its `X-Sandbox-Fault`): the refusal, latency, broken connection or dribble it met. */
  fault?: string;
  /** Wall-clock milliseconds the sandbox took to answer. */
  durationMs: number;
  request: { headers: Record<string, string>; body?: unknown };
  response: { body?: unknown };
  /** Compatibility warnings the answer carried as `X-Sandbox-Warning` (docs/compatibility.md). */
  warnings?: string[];
  /**
   * Where the request's work hangs in a trace, as its deliveries' parent (docs/webhooks.md, "Traces"): the
   * caller's `traceparent`, or with tracing on the request's own span.
   */
  trace?: { traceparent: string; tracestate?: string };
}

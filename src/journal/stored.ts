/**
 * What the journal keeps per request (`Stored`): the strings as they came, each body at most MAX_BODY_CHARS, and what
 * the readiness report reads (JournalRecord); and how a kept entry is shown (parsed, redacted) or put back from the
 * data file.
 */
import { stringAt } from '../core/json-path.js';
import { isoTime } from '../core/time-format.js';
import { type TraceContext, traceparent } from '../core/trace-context.js';
import type { JournalEntry } from './entry.js';
import { requestKind } from './filter.js';
import type { JournalRecord } from './record.js';
import { REDACTED, SECRET_HEADERS, redact, redactQuery } from './redaction.js';

/** Bodies longer than this (in characters of JSON) are kept as `{truncated: true, bytes}` only. */
export const MAX_BODY_CHARS = 64 * 1024;

/**
 * What the middleware keeps per request: the strings as they came (headers as a flat name/value list, the bodies'
 * JSON text). Parsing, redacting and building the entry wait until someone reads the journal (or the log needs
 * the entry), and the built entry is kept with it.
 */
export interface Stored extends JournalRecord {
  /** The raw query string, '' when none. */
  query: string;
  headers: readonly string[];
  requestBody: Captured;
  responseBody: Captured;
  /** The entry as shown, built on first read. */
  shown: JournalEntry | undefined;
  warnings: readonly string[] | undefined;
  trace: TraceContext | undefined;
}

export type Captured = string | { truncated: true; bytes: number } | undefined;

/** The entry as the journal shows it: bodies parsed and redacted, headers redacted (`apiKeyHeader` with the secrets). */
export function showStored(stored: Stored, apiKeyHeader: string): JournalEntry {
  const query = stored.query === '' ? '' : redactQuery(stored.query);
  const parsed = parseBody(stored.requestBody);
  return {
    id: stored.id,
    at: isoTime(stored.at),
    kind: requestKind(stored.path),
    method: stored.method,
    path: stored.path,
    ...(query !== '' ? { query } : {}),
    // The travel object's operation, from the whole body (the kept copy may be cut).
    ...(stored.action !== undefined ? { action: stored.action } : {}),
    status: stored.status,
    ...(stored.fault !== undefined ? { fault: stored.fault } : {}),
    durationMs: stored.durationMs,
    request: {
      headers: shownHeaders(stored.headers, apiKeyHeader),
      ...(stored.requestBody !== undefined ? { body: redact(parsed) } : {}),
    },
    response: stored.responseBody !== undefined ? { body: redact(parseBody(stored.responseBody)) } : {},
    ...(stored.warnings?.length ? { warnings: [...stored.warnings] } : {}),
    ...(stored.trace
      ? {
          trace: {
            traceparent: traceparent(stored.trace),
            ...(stored.trace.tracestate ? { tracestate: stored.trace.tracestate } : {}),
          },
        }
      : {}),
  };
}

/** The headers as shown: names lower-cased, a repeated one joined with ", ", secrets redacted. */
function shownHeaders(pairs: readonly string[], apiKeyHeader: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    const name = pairs[i]!.toLowerCase();
    const value = pairs[i + 1]!;
    out[name] =
      SECRET_HEADERS.has(name) || name === apiKeyHeader ? REDACTED : name in out ? `${out[name]}, ${value}` : value;
  }
  return out;
}

/** The contract a request's body names: `data.contract.contractKey` (a contract's operations), else `data.contractKey`. */
export function contractNamed(body: unknown): string | undefined {
  return stringAt(body, 'data', 'contract', 'contractKey') ?? stringAt(body, 'data', 'contractKey');
}

/** The client a request's body names (`data.clientKey`). */
export function clientNamed(body: unknown): string | undefined {
  return stringAt(body, 'data', 'clientKey');
}

export function charsOf(body: Captured): number {
  return typeof body === 'string' ? body.length : 0;
}

/** The JSON text the handler answered, or its size when over the cap. */
export function captured(text: string | undefined): Captured {
  if (text === undefined) return undefined;
  return text.length > MAX_BODY_CHARS ? { truncated: true, bytes: Buffer.byteLength(text) } : text;
}

/** `Retry-After` in seconds (the sandbox sends seconds, never a date). */
export function retryAfterOf(value: string | null): number | undefined {
  return value !== null && /^\d+$/.test(value.trim()) ? Number(value) : undefined;
}

/** Node's rawHeaders when the request came through @hono/node-server, else a flat copy of the Headers. */
export function rawHeaders(env: unknown, headers: Headers): string[] {
  const incoming = (env as { incoming?: { rawHeaders?: unknown } } | undefined)?.incoming;
  if (incoming && Array.isArray(incoming.rawHeaders)) return incoming.rawHeaders as string[];
  const out: string[] = [];
  headers.forEach((value, name) => {
    out.push(name, value);
  });
  return out;
}

/**
 * The request's body: the text the body reader kept (http/body.ts reads the body of a refused request too, before
 * its answer leaves), cut to the cap.
 */
export function requestText(kept: string | undefined): Captured {
  if (kept === undefined || kept === '') return undefined;
  return kept.length > MAX_BODY_CHARS ? { truncated: true, bytes: Buffer.byteLength(kept) } : kept;
}

export function parseBody(body: Captured): unknown {
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

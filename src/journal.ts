/**
 * The request journal (GET /__sandbox/requests): every request the sandbox answered, with its bodies, so a
 * test can assert on what its client actually sent. Secrets and tokens are redacted before anything is kept,
 * the journal holds at most `limit` entries (oldest dropped first) and each body at most MAX_BODY_CHARS, so
 * memory stays bounded however long the sandbox runs.
 */
import type { MiddlewareHandler } from 'hono';
import { elapsedSince, monotonicNow } from './clock.js';
import type { Services } from './context.js';
import { ApiError } from './errors.js';
import { rememberedBodyText } from './http/body-text.js';
import { operationOf } from './http/operation.js';
import { isoTime } from './time-format.js';

export const DEFAULT_JOURNAL_LIMIT = 1000;
/** Bodies longer than this (in characters of JSON) are kept as `{truncated: true, bytes}` only. */
export const MAX_BODY_CHARS = 64 * 1024;
export const REDACTED = '[redacted]';

/** Body fields whose values never reach the journal or the log (matched without regard to case). */
const SECRET_FIELDS = new Set(['secret', 'access_token', 'apikey', 'api_key', 'token', 'password', 'authorization', 'refresh_token']);

export interface JournalEntry {
  /** Increasing number, unique within this sandbox's lifetime (also across resets). */
  id: number;
  /** Sandbox time when the request arrived. */
  at: string;
  method: string;
  path: string;
  query?: string;
  /** The operation: `data.action`, `data.type` (settings) or a top-level `action` (token variants). */
  action?: string;
  status: number;
  /** Wall-clock milliseconds the sandbox took to answer. */
  durationMs: number;
  request: { headers: Record<string, string>; body?: unknown };
  response: { body?: unknown };
}

export interface JournalFilter {
  /** Exact path, or a prefix ending in `*` (`/api/*`). */
  path?: string;
  method?: string;
  action?: string;
  /** Exact status (`404`) or a class (`4xx`). */
  status?: string | number;
  /** Entries at or after this sandbox time (ISO 8601), or with an id above this number. */
  since?: string | number;
  /** Only the requests of the platform with this API key. */
  apiKey?: string;
  /** The newest N of the matches. */
  limit?: number;
}

/**
 * What the middleware keeps per request: references, not copies. Parsing, redacting and copying the bodies
 * and headers waits until someone reads the journal (or the log needs the entry), so recording a request
 * costs a few field writes on the hot path.
 */
interface Stored {
  id: number;
  atMs: number;
  method: string;
  path: string;
  url: string;
  status: number;
  durationMs: number;
  /** Header names and values, alternating: node's own rawHeaders on a real port, a flat copy in process. */
  headers: string[];
  requestBody: Captured;
  /** The object the handler passed to c.json, when it is to be kept. */
  sent: { object: unknown } | undefined;
  platformId?: string | undefined;
  /** The entry as shown, built on first read. */
  view?: JournalEntry;
}

export class RequestJournal {
  private entries: Stored[] = [];
  private nextId = 1;

  constructor(
    private readonly services: Services,
    readonly limit: number = DEFAULT_JOURNAL_LIMIT,
    private readonly apiKeyHeader = 'x-service-key',
  ) {
    services.bus.on('sandbox.reset', (event) => this.clear(event.platformId));
  }

  get size(): number {
    return this.entries.length;
  }

  /** Drops every entry, or only those of one platform. */
  clear(platformId?: string): void {
    this.entries = platformId === undefined ? [] : this.entries.filter((e) => e.platformId !== platformId);
  }

  platformIdOf(apiKey: string): string | undefined {
    return this.services.store.platforms.where('apiKey', apiKey)[0]?.platformId;
  }

  list(filter: JournalFilter = {}): JournalEntry[] {
    const matches = this.entries.filter(matcher(filter, this.services, (e) => this.view(e)));
    const shown = filter.limit !== undefined ? matches.slice(Math.max(0, matches.length - filter.limit)) : matches;
    return shown.map((e) => this.view(e));
  }

  /** The Hono middleware that records each request; mount it before every route. */
  middleware(options: { skip?: (path: string, method: string) => boolean; skipBodies?: (path: string) => boolean } = {}): MiddlewareHandler {
    return async (c, next) => {
      if (options.skip?.(c.req.path, c.req.method)) return next();
      const started = monotonicNow();
      const atMs = this.services.clock.now();
      // With a journal of size 0 only the log needs the entry: skip the bodies, except an error's, whose
      // message the log line shows.
      const keepBodies = this.limit > 0 && !options.skipBodies?.(c.req.path);
      // The answer's body is taken where it is made (c.json), not by copying the response stream.
      let sent: { object: unknown } | undefined;
      const json = c.json;
      c.json = ((object: unknown, ...rest: unknown[]) => {
        sent = { object };
        return (json as (...args: unknown[]) => Response)(object, ...rest);
      }) as typeof c.json;
      await next();
      const headers = c.req.raw.headers;
      const stored: Stored = {
        id: this.nextId++,
        atMs,
        method: c.req.method,
        path: c.req.path,
        url: c.req.url,
        status: c.res.status,
        durationMs: elapsedSince(started),
        // Keeping undici's Headers (or the request) alive for `limit` requests moves them into the old
        // generation and costs the garbage collector on every request; a flat array of strings is cheap.
        headers: rawHeaders(c.env, headers),
        requestBody: keepBodies ? await requestText(c.req.raw) : undefined,
        sent: keepBodies || c.res.status >= 400 ? sent : undefined,
      };
      stored.platformId = this.platformOf(headers, stored);
      if (this.limit > 0) {
        this.entries.push(stored);
        if (this.entries.length > this.limit) this.entries.splice(0, this.entries.length - this.limit);
      }
      if (this.services.bus.hasListeners('request.completed')) this.services.bus.emit({ type: 'request.completed', entry: this.view(stored) });
    };
  }

  /** The entry as the journal shows it: parsed, redacted bodies and headers, built once. */
  private view(stored: Stored): JournalEntry {
    if (stored.view) return stored.view;
    const url = new URL(stored.url);
    const parsed = parseBody(stored.requestBody);
    const answered = parseBody(capture(stored.sent));
    stored.view = {
      id: stored.id,
      at: isoTime(stored.atMs),
      method: stored.method,
      path: stored.path,
      ...(url.search ? { query: url.search.slice(1) } : {}),
      ...actionField(parsed),
      status: stored.status,
      durationMs: stored.durationMs,
      request: { headers: this.headers(stored.headers), ...(stored.requestBody !== undefined ? { body: redact(parsed) } : {}) },
      response: stored.sent !== undefined ? { body: redact(answered) } : {},
    };
    return stored.view;
  }

  private headers(pairs: string[]): Record<string, string> {
    const out: Record<string, string> = {};
    for (let i = 0; i + 1 < pairs.length; i += 2) {
      const name = pairs[i]!.toLowerCase();
      const value = pairs[i + 1]!;
      out[name] = name === 'authorization' || name === this.apiKeyHeader || name === 'cookie' ? REDACTED : name in out ? `${out[name]}, ${value}` : value;
    }
    return out;
  }

  /**
   * The tenant a request belongs to, so one platform's reset drops only its own entries. Taken when the
   * request is recorded (a reset may remove the token that tells it later); the bodies are parsed only for
   * requests without credential headers (token create, platform create).
   */
  private platformOf(headers: Headers, stored: Stored): string | undefined {
    const { store } = this.services;
    const bearer = /^Bearer\s+(\S+)/i.exec(headers.get('authorization') ?? '')?.[1];
    if (bearer) return store.tokens.get(bearer)?.platformId;
    const header = headers.get(this.apiKeyHeader);
    const body = header === null ? parseBody(stored.requestBody) : undefined;
    const apiKey =
      header ??
      stringAt(body, 'data', 'apiKey') ??
      stringAt(body, 'apiKey') ??
      stringAt(header === null ? stored.sent?.object : undefined, 'apiKey');
    return apiKey ? store.platforms.where('apiKey', apiKey.trim())[0]?.platformId : undefined;
  }
}

function stringAt(value: unknown, ...path: string[]): string | undefined {
  let at = value;
  for (const key of path) {
    if (at === null || typeof at !== 'object' || Array.isArray(at)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return typeof at === 'string' ? at : undefined;
}

/** The entry's `action` field, cut to 100 characters (a hostile body may send anything there). */
function actionField(body: unknown): { action?: string } {
  const action = operationOf(body);
  return action !== undefined ? { action: action.slice(0, 100) } : {};
}

type Captured = string | { truncated: true; bytes: number } | undefined;

/** The JSON the handler answered, as text, or its size when over the cap. */
function capture(sent: { object: unknown } | undefined): Captured {
  if (!sent) return undefined;
  let text: string | undefined;
  try {
    text = JSON.stringify(sent.object);
  } catch {
    return undefined;
  }
  if (text === undefined) return undefined;
  return text.length > MAX_BODY_CHARS ? { truncated: true, bytes: Buffer.byteLength(text) } : text;
}

/** Node's rawHeaders when the request came through @hono/node-server, else a flat copy of the Headers. */
function rawHeaders(env: unknown, headers: Headers): string[] {
  const incoming = (env as { incoming?: { rawHeaders?: unknown } } | undefined)?.incoming;
  if (incoming && Array.isArray(incoming.rawHeaders)) return incoming.rawHeaders as string[];
  const out: string[] = [];
  headers.forEach((value, name) => out.push(name, value));
  return out;
}

/**
 * The request's body: the text the body reader kept, or, when no handler read the body (a 404, a 405), the
 * body itself, read now that the handler is done (never more than the cap).
 */
async function requestText(request: Request): Promise<Captured> {
  const kept = rememberedBodyText(request);
  if (kept !== undefined) return kept === '' ? undefined : kept.length > MAX_BODY_CHARS ? { truncated: true, bytes: Buffer.byteLength(kept) } : kept;
  if (!request.body || request.bodyUsed) return undefined;
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > MAX_BODY_CHARS) return { truncated: true, bytes: declared };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BODY_CHARS) {
        void reader.cancel().catch(() => undefined);
        return { truncated: true, bytes: size };
      }
      chunks.push(value);
    }
  } catch {
    return undefined;
  }
  return size === 0 ? undefined : Buffer.concat(chunks).toString('utf8');
}

function parseBody(body: Captured): unknown {
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

/** A deep copy with every secret-bearing field replaced. */
export function redact(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object' || depth > 64) return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = SECRET_FIELDS.has(key.toLowerCase()) && v !== undefined && v !== null ? REDACTED : redact(v, depth + 1);
  }
  return out;
}

function matcher(filter: JournalFilter, services: Services, view: (entry: Stored) => JournalEntry): (entry: Stored) => boolean {
  const tests: ((entry: Stored) => boolean)[] = [];
  if (filter.path) {
    const path = filter.path;
    tests.push(path.endsWith('*') ? (e) => e.path.startsWith(path.slice(0, -1)) : (e) => e.path === path);
  }
  if (filter.method) {
    const method = filter.method.toUpperCase();
    tests.push((e) => e.method === method);
  }
  if (filter.action) tests.push((e) => view(e).action === filter.action);
  if (filter.status !== undefined) {
    const status = String(filter.status).toLowerCase();
    if (/^[1-5]xx$/.test(status)) tests.push((e) => Math.floor(e.status / 100) === Number(status[0]));
    else if (/^\d{3}$/.test(status)) tests.push((e) => e.status === Number(status));
    else throw ApiError.badRequest(`status must be a status like 404 or a class like 4xx (got "${status}")`, [{ path: 'status', message: 'Not a status' }]);
  }
  if (filter.since !== undefined) {
    const since = String(filter.since);
    if (/^\d+$/.test(since)) tests.push((e) => e.id > Number(since));
    else {
      const ms = Date.parse(since);
      if (!Number.isFinite(ms)) throw ApiError.badRequest(`since must be an ISO 8601 time or an entry id (got "${since}")`, [{ path: 'since', message: 'Not a time' }]);
      tests.push((e) => e.atMs >= ms);
    }
  }
  if (filter.apiKey !== undefined) {
    const platformId = services.store.platforms.where('apiKey', filter.apiKey)[0]?.platformId;
    tests.push((e) => platformId !== undefined && e.platformId === platformId);
  }
  return (entry) => tests.every((t) => t(entry));
}

/**
 * The request journal (GET /__sandbox/requests): every request the sandbox answered, with its bodies, so a
 * test can assert on what its client actually sent. Secrets and tokens are redacted before anything is kept,
 * the journal holds at most `limit` entries (oldest dropped first) and each body at most MAX_BODY_CHARS, so
 * memory stays bounded however long the sandbox runs.
 */
import { DEFAULT_JOURNAL_LIMIT } from '../config/options.js';
import type { MiddlewareHandler } from 'hono';
import { elapsedSince, monotonicNow } from '../core/clock.js';
import type { Services } from '../domain/context.js';
import { ApiError } from '../core/errors.js';
import { rememberedBodyText } from '../core/body-text.js';
import { rememberedWarnings } from '../core/warnings.js';
import { operationOf } from '../core/operation.js';
import { isoTime } from '../core/time-format.js';

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
  /** Compatibility warnings the answer carried as `X-Sandbox-Warning` (decisions §11). */
  warnings?: string[];
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
 * What the middleware keeps per request: numbers and UTF-8 bytes, no per-request objects. The strings (path,
 * query, headers, both bodies) are copied into one byte arena off the JS heap (see `EntryBytes`), and slots
 * are reused round the ring. An entry lives for `limit` requests, long enough that every object it held used to
 * be promoted to the old generation and collected there: that cost more than the recording itself (measured in
 * docs/benchmarks.md). Parsing, redacting and building the entry wait until someone reads the journal (or the
 * log needs the entry).
 */
interface Stored {
  id: number;
  atMs: number;
  method: string;
  status: number;
  durationMs: number;
  platformId: string | undefined;
  /**
   * Where this entry's strings start in the arena, and where each ends: path, query (empty when none), headers
   * (names and values joined by NUL), request body, response body. Offsets only: a slot holding a reference to a
   * young buffer made every scavenge keep whole requests alive in about half the runs (measured, not understood).
   */
  start: number;
  ends: Int32Array;
  /** BODY_NONE, BODY_TEXT (in the arena), or the size in bytes of a body kept only as its size. */
  requestBody: number;
  responseBody: number;
  /** The entry as shown, built on first read. */
  view: JournalEntry | undefined;
  warnings: readonly string[] | undefined;
}

const BODY_NONE = -1;
const BODY_TEXT = -2;
const PATH = 0;
const QUERY = 1;
const HEADERS = 2;
const REQUEST = 3;
const RESPONSE = 4;

const JSON_HEADERS = { 'Content-Type': 'application/json' };
/** The real service's API-key header, accepted beside the configured one (http/auth.ts): redacted the same. */
const REAL_KEY_HEADER = 'x-sendforsign-key';

export class RequestJournal {
  /** A ring of `limit` slots: the oldest entry sits at `first`, the newest `size - 1` slots after it. */
  private ring: Stored[] = [];
  private first = 0;
  private count = 0;
  private nextId = 1;
  private readonly bytes = new EntryBytes();

  constructor(
    private readonly services: Services,
    readonly limit: number = DEFAULT_JOURNAL_LIMIT,
    private readonly apiKeyHeader = 'x-service-key',
  ) {
    services.bus.on('sandbox.reset', (event) => this.clear(event.platformId));
  }

  /** Hears every entry as it is recorded (the request log on stdout): redacted, like the journal shows it. */
  onEntry(listener: (entry: JournalEntry) => void): void {
    this.listeners.push(listener);
  }

  private readonly listeners: ((entry: JournalEntry) => void)[] = [];

  get size(): number {
    return this.count;
  }

  /** Drops every entry, or only those of one platform. */
  clear(platformId?: string): void {
    const kept = platformId === undefined ? [] : this.entries().filter((e) => e.platformId !== platformId);
    this.ring = kept;
    this.first = 0;
    this.count = kept.length;
    if (kept.length === 0) this.bytes.reset();
  }

  platformIdOf(apiKey: string): string | undefined {
    return this.services.store.platforms.where('apiKey', apiKey)[0]?.platformId;
  }

  list(filter: JournalFilter = {}): JournalEntry[] {
    const matches = this.entries().filter(matcher(filter, this.services, (e) => this.view(e), (e) => this.bytes.text(e, PATH)));
    const shown = filter.limit !== undefined ? matches.slice(Math.max(0, matches.length - filter.limit)) : matches;
    return shown.map((e) => this.view(e));
  }

  /** The entries, oldest first. */
  private entries(): Stored[] {
    const out: Stored[] = [];
    for (let i = 0; i < this.count; i++) out.push(this.ring[(this.first + i) % this.limit]!);
    return out;
  }

  /** The entries other than the newest (the one being written), oldest first; and the oldest of them. */
  private readonly olderEntries = {
    all: (): Stored[] => this.entries().slice(0, -1),
    oldest: (): Stored | undefined => (this.count >= 2 ? this.ring[this.first] : undefined),
  };

  /** The slot for a new entry: a fresh one while the ring fills, then the oldest one's. */
  private nextSlot(): Stored {
    if (this.count < this.limit) {
      const at = (this.first + this.count++) % this.limit;
      return (this.ring[at] ??= emptySlot());
    }
    const slot = this.ring[this.first]!;
    this.first = (this.first + 1) % this.limit;
    return slot;
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
      // The answer's body is taken where it is made: c.json serialises the object anyway, and the journal
      // keeps a copy of that text, not the object graph.
      let sent: string | undefined;
      const json = c.json;
      c.json = ((object: unknown, arg?: unknown, headers?: unknown) => {
        if (headers !== undefined) return (json as (...args: unknown[]) => Response)(object, arg, headers);
        sent = JSON.stringify(object);
        return c.body(sent as string, arg as 200, JSON_HEADERS);
      }) as typeof c.json;
      await next();
      const headers = c.req.raw.headers;
      const status = c.res.status;
      let requestBody = keepBodies ? requestText(c.req.raw) : undefined;
      if (requestBody instanceof Promise) requestBody = await requestBody;
      const responseBody = keepBodies || status >= 400 ? captured(sent) : undefined;
      const id = this.nextId++;
      const log = this.listeners.length > 0;
      if (this.limit === 0 && !log) return;
      const url = c.req.url;
      const mark = url.indexOf('?');
      const stored = this.limit > 0 ? this.nextSlot() : emptySlot();
      stored.id = id;
      stored.atMs = atMs;
      stored.method = c.req.method;
      stored.status = status;
      stored.durationMs = elapsedSince(started);
      stored.view = undefined;
      stored.warnings = rememberedWarnings(c.req.raw);
      stored.platformId = this.platformOf(headers, requestBody, sent);
      stored.requestBody = bodyKind(requestBody);
      stored.responseBody = bodyKind(responseBody);
      // Headers as node's own rawHeaders strings, not undici's Headers (or the request) kept alive.
      this.bytes.write(stored, this.olderEntries, c.req.path, mark >= 0 ? url.slice(mark + 1) : '', rawHeaders(c.env, headers), textOf(requestBody), textOf(responseBody));
      // Built for the log and not kept: kept, every logged request's view would live as long as its entry.
      if (log) {
        const entry = this.buildView(stored);
        for (const listener of this.listeners) listener(entry);
      }
    };
  }

  /** The entry as the journal shows it: parsed, redacted bodies and headers, built once. */
  private view(stored: Stored): JournalEntry {
    return (stored.view ??= this.buildView(stored));
  }

  private buildView(stored: Stored): JournalEntry {
    // Read back through URL, which writes the query the way the request's URL object shows it.
    const rawQuery = this.bytes.text(stored, QUERY);
    const query = rawQuery === '' ? '' : new URL(`http://query/?${rawQuery}`).search.slice(1);
    const requestBody = this.storedBody(stored, REQUEST, stored.requestBody);
    const responseBody = this.storedBody(stored, RESPONSE, stored.responseBody);
    const parsed = parseBody(requestBody);
    const headers = this.bytes.text(stored, HEADERS);
    return {
      id: stored.id,
      at: isoTime(stored.atMs),
      method: stored.method,
      path: this.bytes.text(stored, PATH),
      ...(query !== '' ? { query } : {}),
      ...actionField(parsed),
      status: stored.status,
      durationMs: stored.durationMs,
      request: { headers: this.headers(headers === '' ? [] : headers.split('\0')), ...(requestBody !== undefined ? { body: redact(parsed) } : {}) },
      response: responseBody !== undefined ? { body: redact(parseBody(responseBody)) } : {},
      ...(stored.warnings?.length ? { warnings: [...stored.warnings] } : {}),
    };
  }

  private storedBody(stored: Stored, index: number, kind: number): Captured {
    if (kind === BODY_NONE) return undefined;
    if (kind === BODY_TEXT) return this.bytes.text(stored, index);
    return { truncated: true, bytes: kind };
  }

  private headers(pairs: string[]): Record<string, string> {
    const out: Record<string, string> = {};
    for (let i = 0; i + 1 < pairs.length; i += 2) {
      const name = pairs[i]!.toLowerCase();
      const value = pairs[i + 1]!;
      out[name] = name === 'authorization' || name === this.apiKeyHeader || name === REAL_KEY_HEADER || name === 'cookie' ? REDACTED : name in out ? `${out[name]}, ${value}` : value;
    }
    return out;
  }

  /**
   * The tenant a request belongs to, so one platform's reset drops only its own entries. Taken when the
   * request is recorded (a reset may remove the token that tells it later); the bodies are parsed only for
   * requests without credential headers (token create, platform create).
   */
  private platformOf(headers: Headers, requestBody: Captured, sent: string | undefined): string | undefined {
    const { store } = this.services;
    const bearer = /^Bearer\s+(\S+)/i.exec(headers.get('authorization') ?? '')?.[1];
    if (bearer) return store.tokens.get(bearer)?.platformId;
    const header = headers.get(this.apiKeyHeader) ?? headers.get(REAL_KEY_HEADER);
    const body = header === null ? parseBody(requestBody) : undefined;
    const apiKey =
      header ??
      stringAt(body, 'data', 'apiKey') ??
      stringAt(body, 'apiKey') ??
      stringAt(header === null ? parseBody(sent) : undefined, 'apiKey');
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

/** The JSON text the handler answered, or its size when over the cap. */
function captured(text: string | undefined): Captured {
  if (text === undefined) return undefined;
  return text.length > MAX_BODY_CHARS ? { truncated: true, bytes: Buffer.byteLength(text) } : text;
}

function emptySlot(): Stored {
  return {
    id: 0,
    atMs: 0,
    method: '',
    status: 0,
    durationMs: 0,
    platformId: undefined,
    start: 0,
    ends: new Int32Array(5),
    requestBody: BODY_NONE,
    responseBody: BODY_NONE,
    view: undefined,
    warnings: undefined,
  };
}

function bodyKind(body: Captured): number {
  return body === undefined ? BODY_NONE : typeof body === 'string' ? BODY_TEXT : body.bytes;
}

function textOf(body: Captured): string {
  return typeof body === 'string' ? body : '';
}

/**
 * The strings of journal entries as UTF-8, in one arena outside the JS heap, written round it like the ring:
 * the live entries sit between the oldest one's start and `head`, wrapping at the end. When a new entry does
 * not fit beside them, the arena doubles and the live entries are copied to its start (offsets in their slots
 * moved), so it grows to what `limit` entries need and stays there until the journal is emptied.
 */
class EntryBytes {
  private arena = Buffer.allocUnsafe(ARENA_BYTES);
  private head = 0;

  reset(): void {
    if (this.arena.length > ARENA_BYTES) this.arena = Buffer.allocUnsafe(ARENA_BYTES);
    this.head = 0;
  }

  text(stored: Stored, index: number): string {
    return this.arena.toString('utf8', index === 0 ? stored.start : stored.ends[index - 1]!, stored.ends[index]!);
  }

  write(stored: Stored, older: OlderEntries, path: string, query: string, headers: readonly string[], request: string, response: string): void {
    let room = path.length + query.length + request.length + response.length + headers.length;
    for (const h of headers) room += h.length;
    // A UTF-16 code unit takes at most three bytes of UTF-8.
    room *= 3;
    const at = this.place(room, older);
    const arena = this.arena;
    const ends = stored.ends;
    let end = at;
    stored.start = at;
    end += arena.write(path, end, 'utf8');
    ends[PATH] = end;
    end += arena.write(query, end, 'utf8');
    ends[QUERY] = end;
    for (let i = 0; i < headers.length; i++) {
      if (i > 0) arena[end++] = 0;
      end += arena.write(headers[i]!, end, 'utf8');
    }
    ends[HEADERS] = end;
    end += arena.write(request, end, 'utf8');
    ends[REQUEST] = end;
    end += arena.write(response, end, 'utf8');
    ends[RESPONSE] = end;
    this.head = end;
  }

  /** Where `room` bytes can go without touching a live entry; grows the arena when nowhere. */
  private place(room: number, older: OlderEntries): number {
    const oldest = older.oldest()?.start;
    if (oldest === undefined) {
      if (room > this.arena.length) this.arena = Buffer.allocUnsafe(Math.max(2 * this.arena.length, room));
      return 0;
    }
    if (this.head >= oldest) {
      if (this.head + room <= this.arena.length) return this.head;
      if (room < oldest) return 0;
    } else if (this.head + room < oldest) return this.head;
    return this.grow(room, older.all());
  }

  private grow(room: number, live: Stored[]): number {
    let used = 0;
    for (const e of live) used += e.ends[RESPONSE]! - e.start;
    const next = Buffer.allocUnsafe(Math.max(2 * this.arena.length, 2 * (used + room)));
    let at = 0;
    for (const e of live) {
      const size = e.ends[RESPONSE]! - e.start;
      this.arena.copy(next, at, e.start, e.start + size);
      const delta = at - e.start;
      e.start += delta;
      for (let i = 0; i < e.ends.length; i++) e.ends[i]! += delta;
      at += size;
    }
    this.arena = next;
    this.head = at;
    return at;
  }
}

const ARENA_BYTES = 1024 * 1024;

interface OlderEntries {
  all(): Stored[];
  oldest(): Stored | undefined;
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
function requestText(request: Request): Captured | Promise<Captured> {
  const kept = rememberedBodyText(request);
  if (kept !== undefined) return kept === '' ? undefined : kept.length > MAX_BODY_CHARS ? { truncated: true, bytes: Buffer.byteLength(kept) } : kept;
  if (!request.body || request.bodyUsed) return undefined;
  return unreadText(request, request.body);
}

async function unreadText(request: Request, body: ReadableStream<Uint8Array>): Promise<Captured> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > MAX_BODY_CHARS) return { truncated: true, bytes: declared };
  const reader = body.getReader();
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

function matcher(
  filter: JournalFilter,
  services: Services,
  view: (entry: Stored) => JournalEntry,
  pathOf: (entry: Stored) => string,
): (entry: Stored) => boolean {
  const tests: ((entry: Stored) => boolean)[] = [];
  if (filter.path) {
    const path = filter.path;
    tests.push(path.endsWith('*') ? (e) => pathOf(e).startsWith(path.slice(0, -1)) : (e) => pathOf(e) === path);
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

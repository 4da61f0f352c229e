/**
 * The request journal (GET /__sandbox/requests): every request the sandbox answered, with its bodies, so a
 * test can assert on what its client actually sent. Secrets and tokens are redacted before anything is kept,
 * the journal holds at most `limit` entries (oldest dropped first) and each body at most MAX_BODY_CHARS, so
 * memory stays bounded however long the sandbox runs.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { DEFAULT_JOURNAL_LIMIT } from '../config/options.js';
import { type WallClock, elapsedSince, wallNow } from '../core/wall-time.js';
import { DEFAULT_API_KEY_HEADER } from '../core/credentials.js';
import { stringAt } from '../core/json-path.js';
import type { Keeper } from '../core/kept.js';
import { pause } from '../core/pause.js';
import { type RequestEnv, requestTenant, sentStatus } from '../domain/request-facts.js';
import type { Services } from '../store/services.js';
import type { JournalEntry } from './entry.js';
import { type JournalFilter, type RequestKind, matcher, requestKind } from './filter.js';
import { keptStrings, restoredStored } from './kept-entry.js';
import type { JournalRecord } from './record.js';
import {
  type Stored,
  captured,
  charsOf,
  clientNamed,
  contractNamed,
  parseBody,
  rawHeaders,
  requestText,
  retryAfterOf,
  showStored,
} from './stored.js';

export type { JournalEntry } from './entry.js';
export { REQUEST_KINDS, type JournalFilter, type RequestKind, requestKind } from './filter.js';

const JSON_HEADERS = { 'Content-Type': 'application/json' };
/** The control route that makes a tenant (control-table/state.ts, mounted under /__sandbox): its answer names it. */
const PLATFORM_CREATE_PATH = '/__sandbox/platforms';

export class RequestJournal {
  /** A ring of at most `limit` entries: the oldest sits at `first`, the next ones after it, wrapping round. */
  private ring: Stored[] = [];
  private first = 0;
  private nextId = 1;
  /** Counts arrivals and answers (`Stored.arrived`, `answered`). */
  private order = 0;
  /** The entries by id, for the keeper. */
  private readonly byId = new Map<string, Stored>();
  private readonly keeper: Keeper;

  constructor(
    private readonly services: Services,
    readonly limit: number = DEFAULT_JOURNAL_LIMIT,
    private readonly apiKeyHeader = DEFAULT_API_KEY_HEADER.toLowerCase(),
    private readonly wall: WallClock = wallNow,
  ) {
    services.bus.on('sandbox.reset', (event) => this.clear(event.platformId));
    // Kept redacted (kept-entry.ts): the data file never holds a credential the journal would not show.
    this.keeper = services.store.keep('requests', {
      record: (id) => {
        const stored = this.byId.get(id);
        return stored && keptStrings(stored, this.apiKeyHeader);
      },
      keys: () => [...this.entries()].map((e) => String(e.id)),
      restore: (_id, record) => {
        const entry = restoredStored(record as Parameters<typeof restoredStored>[0], {
          arrived: this.order++,
          answered: this.order++,
        });
        this.nextId = Math.max(this.nextId, entry.id + 1);
        if (this.limit > 0) this.add(entry);
      },
      clear: () => this.clear(),
    });
  }

  /** Hears every entry as it is recorded (the request log on stdout): redacted, like the journal shows it. */
  onEntry(listener: (entry: JournalEntry) => void): void {
    this.listeners.push(listener);
  }

  private readonly listeners: ((entry: JournalEntry) => void)[] = [];

  get size(): number {
    return this.ring.length;
  }

  /** Drops every entry, or only those of one platform. */
  clear(platformId?: string): void {
    const kept: Stored[] = [];
    for (const e of this.entries()) {
      if (platformId !== undefined && e.platformId !== platformId) kept.push(e);
      else this.forget(e);
    }
    this.ring = kept;
    this.first = 0;
  }

  private forget(e: Stored): void {
    const id = String(e.id);
    this.byId.delete(id);
    this.keeper.changed(id);
  }

  platformIdOf(apiKey: string): string | undefined {
    return this.services.store.platforms.where('apiKey', apiKey)[0]?.platformId;
  }

  list(filter: JournalFilter = {}): JournalEntry[] {
    const matches = this.entries().filter(matcher(filter, this.services, (e: Stored) => this.shown(e).action));
    const shown = filter.limit !== undefined ? matches.slice(Math.max(0, matches.length - filter.limit)) : matches;
    return shown.map((e) => this.shown(e));
  }

  /** The entries, oldest first: one copy of the ring in one pass (a tenant's reset asks for it, one per test). */
  private entries(): Stored[] {
    const out = new Array<Stored>(this.ring.length);
    for (let i = 0; i < this.ring.length; i++) out[i] = this.ring[(this.first + i) % this.ring.length]!;
    return out;
  }

  private add(entry: Stored): void {
    const id = String(entry.id);
    this.byId.set(id, entry);
    this.keeper.changed(id);
    if (this.ring.length < this.limit) {
      this.ring.push(entry);
      return;
    }
    this.forget(this.ring[this.first]!);
    this.ring[this.first] = entry;
    this.first = (this.first + 1) % this.limit;
  }

  /** The Hono middleware that records each request; mount it before every route. */
  middleware(
    options: { skip?: (path: string, method: string) => boolean; skipBodies?: (path: string) => boolean } = {},
  ): MiddlewareHandler<RequestEnv> {
    return async (c, next) => {
      if (options.skip?.(c.req.path, c.req.method)) return next();
      const wall = this.wall();
      const arrived = this.order++;
      // With a journal of size 0 only the log needs the entry: skip the bodies, except an error's, whose
      // message the log line shows.
      const keepBodies = this.limit > 0 && !options.skipBodies?.(c.req.path);
      let sent: string | undefined;
      keepSent(c, (text) => {
        sent = text;
      });
      await next();
      const requestBody = keepBodies ? requestText(c.get('bodyText')) : undefined;
      const id = this.nextId++;
      const answered = this.order++;
      const log = this.listeners.length > 0;
      if (this.limit === 0 && !log) return;
      const entry = this.stored(c, { id, wall, arrived, answered, requestBody }, sent, keepBodies);
      if (this.limit > 0) this.add(entry);
      if (log) {
        // Built for the log and not kept on the entry: kept, every entry's parsed and redacted copies lived on in
        // the ring until read, and their garbage collection cost the logged create 3 % of its rate and 1 ms of p99.
        const shown = showStored(entry, this.apiKeyHeader);
        for (const listener of this.listeners) listener(shown);
      }
    };
  }

  /**
   * What the journal keeps of an answered request: the strings as they came (`sent`: the answer's JSON text), and
   * what the readiness report reads, taken now.
   */
  private stored(
    c: Context<RequestEnv>,
    taken: Pick<Stored, 'id' | 'wall' | 'arrived' | 'answered' | 'requestBody'>,
    sent: string | undefined,
    keepBodies: boolean,
  ): Stored {
    // Its time and tenant as it arrived, on the clock of the tenant its credentials or path named (the travel object).
    const arrival = c.get('request');
    const status = sentStatus(c.get('unanswered'), c.res);
    const url = c.req.url;
    const mark = url.indexOf('?');
    // The request's tenant, worked out once from the whole request (the `drain` stage made the body if no route did).
    const platformId = c.get('body')?.tenant ?? this.createdPlatform(c.req.path, sent);
    // Each field written out, not `...taken`: an entry made by spreading had slow (dictionary) properties, and the
    // readiness report, which reads every entry's, took four times its CPU (docs/benchmarks.md, "readiness report").
    return {
      id: taken.id,
      wall: taken.wall,
      arrived: taken.arrived,
      answered: taken.answered,
      requestBody: taken.requestBody,
      // Known only from the bodies (a token create): the time on that tenant's clock, once answered.
      at: platformId === arrival.tenant ? arrival.at : this.services.clocks.of(platformId).now(),
      method: c.req.method,
      path: c.req.path,
      action: c.get('body')?.operation?.slice(0, 100),
      query: mark >= 0 ? url.slice(mark + 1) : '',
      status,
      durationMs: elapsedSince(arrival.started),
      platformId,
      // Headers as node's own rawHeaders strings, not undici's Headers (or the request) kept alive.
      headers: rawHeaders(c.env, c.req.raw.headers),
      responseBody: keepBodies || status >= 400 ? captured(sent) : undefined,
      shown: undefined,
      warnings: c.get('warnings'),
      retryAfter: status >= 400 ? retryAfterOf(c.res.headers.get('retry-after')) : undefined,
      message: status >= 400 ? stringAt(parseBody(sent), 'message') : undefined,
      fault: c.res.headers.get('x-sandbox-fault') ?? undefined,
      trace: c.get('trace'),
      token: arrival.credentials.bearer,
      contractKey: contractNamed(c.get('body')?.json),
      clientKey: clientNamed(c.get('body')?.json),
    };
  }

  /**
   * The kept entries of one tenant (or all) that came through one door (or any), oldest first, as the readiness report
   * reads them: the entries themselves, not copies, each with what was taken when its request was recorded (no header
   * or body is parsed here), RECORDS_SLICE entries at a time with a turn of the event loop between slices.
   */
  async records(platformId: string | undefined, kind: RequestKind | undefined): Promise<readonly JournalRecord[]> {
    const out: JournalRecord[] = [];
    let read = 0;
    for (const e of this.entries()) {
      if (++read % RECORDS_SLICE === 0) await pause();
      if (platformId !== undefined && e.platformId !== platformId) continue;
      if (kind === undefined || requestKind(e.path) === kind) out.push(e);
    }
    return out;
  }

  /**
   * Builds the shown form of every kept entry not built yet, a slice at a time with a turn of the event loop
   * between slices, so the first read of a full journal (1,000 bodies of up to 64 KiB: ~60 MB to parse and redact,
   * 90–160 ms in one go) does not hold every other request meanwhile. `list()` then finds them built.
   */
  async showAll(): Promise<void> {
    let chars = 0;
    for (const entry of this.entries()) {
      if (entry.shown) continue;
      this.shown(entry);
      chars += charsOf(entry.requestBody) + charsOf(entry.responseBody);
      if (chars >= SHOW_SLICE_CHARS) {
        chars = 0;
        await pause();
      }
    }
  }

  /** The entry as the journal shows it: parsed, redacted bodies and headers, built on its first read. */
  private shown(stored: Stored): JournalEntry {
    stored.shown ??= showStored(stored, this.apiKeyHeader);
    return stored.shown;
  }

  /**
   * A platform made with POST /__sandbox/platforms: the answer names it, so its own creation is filed under it. Only
   * that answer is parsed (parsing every answer without credentials was a tenth of the server's CPU on the health
   * route). Other requests' tenants are the travel object's (domain/request-facts.ts `RequestBody.tenant`), taken when the
   * request is recorded: a reset may remove the token that tells it later.
   */
  private createdPlatform(path: string, sent: string | undefined): string | undefined {
    return path === PLATFORM_CREATE_PATH
      ? requestTenant(this.services, { apiKey: stringAt(parseBody(sent), 'apiKey') })
      : undefined;
  }
}

/**
 * Has `c.json` keep the text it answers: the answer's body is taken where it is made (c.json serialises the object
 * anyway), and the journal keeps a copy of that text, not the object graph.
 */
function keepSent(c: Context, keep: (text: string) => void): void {
  const json = c.json;
  c.json = ((object: unknown, arg?: unknown, headers?: unknown) => {
    if (headers !== undefined) return (json as (...args: unknown[]) => Response)(object, arg, headers);
    const sent = JSON.stringify(object);
    keep(sent);
    return c.body(sent, arg as 200, JSON_HEADERS);
  }) as typeof c.json;
}

/** Characters of body text shown between two turns of the event loop (~10 ms of parsing and redacting). */
const SHOW_SLICE_CHARS = 4 * 1024 * 1024;
/** Entries `records` reads between two turns: slices by body text (~2,500 entries) stalled 46 ms when each was parsed. */
const RECORDS_SLICE = 500;

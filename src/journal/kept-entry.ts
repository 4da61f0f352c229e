/**
 * A request journal entry as the data file keeps it (core/kept.ts, docs/persistence.md "What is kept"): the strings
 * the journal took when the request was answered, with every secret redacted, and nothing the shown entry derives
 * from them (its time text, kind, parsed bodies). On a restart the entry is shown from them as a live one is
 * (`showStored`).
 *
 * Why not the shown entry: building it (parsing both bodies, copying them redacted) and serialising the object it
 * makes was a third of what a `--data` sandbox spent writing its journal file under a webhook fan-out
 * (docs/benchmarks.md, the fan-out row). Data files written before keep the shown entry (`ShownKept`): still read.
 */
import { stringAt } from '../core/json-path.js';
import type { TraceContext } from '../core/trace-context.js';
import type { JournalEntry } from './entry.js';
import { REDACTED, SECRET_HEADERS, redact, redactQuery } from './redaction.js';
import { type Captured, type Stored, clientNamed, contractNamed, parseBody } from './stored.js';

/** What an entry is shown from, as kept: the raw strings, secrets redacted; what the readiness report reads. */
export interface KeptStrings {
  atMs: number;
  platformId?: string;
  id: number;
  method: string;
  path: string;
  /** Redacted as shown; absent when empty. */
  query?: string;
  action?: string;
  status: number;
  durationMs: number;
  fault?: string;
  retryAfter?: number;
  /** Name/value pairs as they came, credentials' values `[redacted]`. */
  headers: string[];
  requestBody?: Captured;
  responseBody?: Captured;
  warnings?: string[];
  trace?: TraceContext;
}

/** An entry as data files and snapshots written before `KeptStrings` keep it: the entry as shown. */
interface ShownKept {
  atMs: number;
  platformId?: string;
  entry: JournalEntry;
}

/**
 * A body text that may name a secret field: it goes through the redaction. A text without any of these words holds
 * no field `redact` would replace (a key escaped as `\u0074oken` has a backslash), and is kept as it came.
 */
const MAY_NAME_SECRET = /secret|token|api_?key|password|authorization|\\/i;

export function keptStrings(stored: Stored, apiKeyHeader: string): KeptStrings {
  return {
    atMs: stored.at,
    ...(stored.platformId !== undefined ? { platformId: stored.platformId } : {}),
    id: stored.id,
    method: stored.method,
    path: stored.path,
    ...(stored.query !== '' ? { query: redactQuery(stored.query) } : {}),
    ...(stored.action !== undefined ? { action: stored.action } : {}),
    status: stored.status,
    durationMs: stored.durationMs,
    ...(stored.fault !== undefined ? { fault: stored.fault } : {}),
    ...(stored.retryAfter !== undefined ? { retryAfter: stored.retryAfter } : {}),
    headers: keptHeaders(stored.headers, apiKeyHeader),
    ...(stored.requestBody !== undefined ? { requestBody: keptBody(stored.requestBody) } : {}),
    ...(stored.responseBody !== undefined ? { responseBody: keptBody(stored.responseBody) } : {}),
    ...(stored.warnings?.length ? { warnings: [...stored.warnings] } : {}),
    ...(stored.trace ? { trace: stored.trace } : {}),
  };
}

function keptHeaders(pairs: readonly string[], apiKeyHeader: string): string[] {
  const out = pairs.slice();
  for (let i = 0; i + 1 < out.length; i += 2) {
    const name = out[i]!.toLowerCase();
    if (SECRET_HEADERS.has(name) || name === apiKeyHeader) out[i + 1] = REDACTED;
  }
  return out;
}

/** The body's text, or, when it may name a secret, the text of its redacted form (shown the same once parsed). */
function keptBody(body: Captured): Captured {
  if (typeof body !== 'string' || !MAY_NAME_SECRET.test(body)) return body;
  const parsed = parseBody(body);
  return typeof parsed === 'string' ? body : JSON.stringify(redact(parsed));
}

/** Its place in the order of arrivals and answers (`Stored.arrived`, `answered`), given by the journal. */
type Order = Pick<Stored, 'arrived' | 'answered'>;

/**
 * A kept entry back in the journal, in either form. Each field written out, as the journal's middleware writes a
 * live entry (journal.ts `stored`: a spread entry had slow properties).
 */
export function restoredStored(record: KeptStrings | ShownKept, order: Order): Stored {
  return 'entry' in record ? fromShown(record, order) : fromStrings(record, order);
}

/** Shown on its first read from its kept strings, as a live entry is. Its wall time is not kept: its sandbox time stands in. */
function fromStrings(k: KeptStrings, { arrived, answered }: Order): Stored {
  const request = parseBody(k.requestBody);
  return {
    id: k.id,
    at: k.atMs,
    wall: k.atMs,
    arrived,
    answered,
    retryAfter: k.retryAfter,
    message: k.status >= 400 ? stringAt(parseBody(k.responseBody), 'message') : undefined,
    fault: k.fault,
    method: k.method,
    path: k.path,
    action: k.action,
    query: k.query ?? '',
    status: k.status,
    durationMs: k.durationMs,
    platformId: k.platformId,
    headers: k.headers,
    requestBody: k.requestBody,
    responseBody: k.responseBody,
    shown: undefined,
    warnings: k.warnings,
    trace: k.trace,
    token: undefined,
    contractKey: contractNamed(request),
    clientKey: clientNamed(request),
  };
}

/** An entry kept as shown: shown already, its raw strings gone. */
function fromShown({ entry, atMs, platformId }: ShownKept, { arrived, answered }: Order): Stored {
  return {
    id: entry.id,
    at: atMs,
    wall: atMs,
    arrived,
    answered,
    retryAfter: undefined,
    message: entry.status >= 400 ? stringAt(entry.response.body, 'message') : undefined,
    fault: entry.fault,
    method: entry.method,
    path: entry.path,
    action: entry.action,
    query: entry.query ?? '',
    status: entry.status,
    durationMs: entry.durationMs,
    platformId,
    headers: [],
    requestBody: undefined,
    responseBody: undefined,
    shown: entry,
    warnings: entry.warnings,
    trace: undefined,
    token: undefined,
    contractKey: contractNamed(entry.request.body),
    clientKey: clientNamed(entry.request.body),
  };
}

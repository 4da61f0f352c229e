/**
 * Transcripts (docs/verify.md, "Transcripts"): the exchanges of one flow, redacted, in a versioned JSON format,
 * and their replay against a sandbox with the comparison `verify` uses. `esign-sandbox verify --record` writes them;
 * the project's suite replays every one in test/parity/transcripts/.
 */
import { type Answer, type Drift, PLACEHOLDER, compareAnswers } from './shape.js';

export const TRANSCRIPT_FORMAT = 'esign-sandbox transcript';
export const TRANSCRIPT_VERSION = 1;

export interface RecordedRequest {
  method: 'POST' | 'GET' | 'PUT' | 'DELETE';
  /** From the base URL on: `/api/contract`. */
  path: string;
  headers: Record<string, string>;
  body?: unknown;
}

export interface Exchange {
  name: string;
  /** Where this exchange comes from, when it differs from the transcript's `source`. */
  source?: string;
  request: RecordedRequest;
  response: { status: number; body: unknown };
}

export interface Transcript {
  format: typeof TRANSCRIPT_FORMAT;
  version: typeof TRANSCRIPT_VERSION;
  /** Where the answers come from: `recorded: …` by verify, or `published example: …`. */
  source: string;
  flow: string;
  /** Which placeholders stand for the platform's API key and secret (a replay puts the sandbox's in). */
  credentials: { apiKey: string; secret: string };
  /** Placeholder → the shape of the value it hides (`key of 20 [A-Za-z0-9]`, `email`; `key`: any key). */
  placeholders: Record<string, string>;
  exchanges: Exchange[];
}

/** A file's text as a transcript, or an Error saying what is wrong with it. */
export function parseTranscript(text: string, name: string): Transcript {
  const t = JSON.parse(text) as Partial<Transcript>;
  if (t.format !== TRANSCRIPT_FORMAT) throw new Error(`${name}: not an esign-sandbox transcript (format)`);
  if (t.version !== TRANSCRIPT_VERSION)
    throw new Error(`${name}: transcript version ${t.version}, this esign-sandbox reads ${TRANSCRIPT_VERSION}`);
  if (!t.source || !t.credentials || !t.placeholders || !Array.isArray(t.exchanges))
    throw new Error(`${name}: a transcript needs source, credentials, placeholders and exchanges`);
  return t as Transcript;
}

export interface ReplayTarget {
  url: string;
  apiKey: string;
  secret: string;
}

export interface ReplayedExchange {
  name: string;
  path: string;
  drifts: Drift[];
}

/**
 * Sends a transcript's requests to a sandbox, in order, each placeholder replaced by what the sandbox answered in
 * its place earlier (or its credentials), and compares every answer with the recorded one by shape.
 */
export async function replayTranscript(t: Transcript, target: ReplayTarget): Promise<ReplayedExchange[]> {
  const bound = new Map<string, string>([
    [t.credentials.apiKey, target.apiKey],
    [t.credentials.secret, target.secret],
  ]);
  let invented = 0;
  const fill = (value: unknown, where: string): unknown => {
    if (typeof value === 'string')
      return value.replace(new RegExp(PLACEHOLDER.source, 'g'), (placeholder) => {
        let real = bound.get(placeholder);
        if (real === undefined && t.placeholders[placeholder] === 'email') {
          real = `replay-${++invented}@example.com`; // an address nobody answered with: any will do
          bound.set(placeholder, real);
        }
        if (real === undefined) throw new Error(`${where}: ${placeholder} is not bound by an earlier answer`);
        return real;
      });
    if (Array.isArray(value)) return value.map((v) => fill(v, where));
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, where)]));
    return value;
  };
  const results: ReplayedExchange[] = [];
  for (const exchange of t.exchanges) {
    const where = `${t.flow} / ${exchange.name}`;
    const { method, path, headers, body } = exchange.request;
    const response = await fetch(target.url + (fill(path, where) as string), {
      method,
      headers: fill(headers, where) as Record<string, string>,
      ...(body === undefined ? {} : { body: JSON.stringify(fill(body, where)) }),
    });
    const text = await response.text();
    const actual: Answer = { status: response.status, body: parseJson(text) };
    bind(exchange.response.body, actual.body, bound);
    results.push({
      name: exchange.name,
      path: path.split('?')[0]!,
      drifts: compareAnswers(actual, exchange.response, t.placeholders),
    });
  }
  return results;
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Where the recorded answer has a whole placeholder, the actual answer's value at the same place binds it. */
function bind(recorded: unknown, actual: unknown, bound: Map<string, string>): void {
  if (typeof recorded === 'string') {
    if (new RegExp(`^${PLACEHOLDER.source}$`).test(recorded) && !bound.has(recorded) && typeof actual === 'string')
      bound.set(recorded, actual);
  } else if (Array.isArray(recorded) && Array.isArray(actual))
    recorded.forEach((item, i) => {
      bind(item, actual[i], bound);
    });
  else if (recorded && actual && typeof recorded === 'object' && typeof actual === 'object')
    for (const [name, inner] of Object.entries(recorded)) bind(inner, (actual as Record<string, unknown>)[name], bound);
}

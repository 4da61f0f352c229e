/**
 * Redaction of what the request journal keeps (journal.ts): secrets and tokens in bodies, query strings and
 * headers are replaced before anything is stored or logged.
 */

import { REAL_SERVICE_KEY_HEADER } from '../core/credentials.js';

export const REDACTED = '[redacted]';

/** Body fields whose values never reach the journal or the log (matched without regard to case). */
const SECRET_FIELDS = new Set([
  'secret',
  'access_token',
  'apikey',
  'api_key',
  'token',
  'password',
  'authorization',
  'refresh_token',
]);

/** Headers that carry credentials, lower case: kept as `[redacted]`, like the configured API-key header. */
export const SECRET_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  REAL_SERVICE_KEY_HEADER.toLowerCase(),
]);

/**
 * The query as the request's URL object writes it, with the value of every parameter named like a secret
 * (`?access_token=…`, `?apiKey=…`) redacted: clients put tokens in query strings too.
 */
export function redactQuery(raw: string): string {
  const url = new URL(`http://query/?${raw}`);
  const secret = [...new Set(url.searchParams.keys())].filter((name) => SECRET_FIELDS.has(name.toLowerCase()));
  for (const name of secret) url.searchParams.set(name, REDACTED);
  return url.search.slice(1);
}

/** What stands for a part of a body nested deeper than the journal shows. */
export const TOO_DEEP = '[nested deeper than 64 levels]';

/**
 * A deep copy with every secret-bearing field replaced. Parts nested deeper than 64 levels are replaced too: a
 * body of thousands of nested arrays would otherwise overflow the stack of whoever serialises the entry (the journal's
 * answer was a 500).
 */
export function redact(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth > 64) return TOO_DEEP;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = SECRET_FIELDS.has(key.toLowerCase()) && v !== undefined && v !== null ? REDACTED : redact(v, depth + 1);
  }
  return out;
}

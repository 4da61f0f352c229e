/**
 * CORS for the API (README, "Security"): browsers on other origins call `/api/*` (the vendor's components do) and
 * load the document URLs the API hands out, which live under `/api` too. A preflight `OPTIONS` answers 204 with
 * the methods and headers the clients send; every answer, errors included, carries `Access-Control-Allow-Origin`.
 * No cookies are involved, so credentials mode stays off. `/__sandbox`, the pages and the docs get none of this:
 * they stay closed to other origins.
 */
import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { DEFAULT_API_KEY_HEADER, REAL_SERVICE_KEY_HEADER } from '../core/credentials.js';

export interface CorsOptions {
  /** The origins allowed (`--cors-origin`); empty: every origin. */
  origins: readonly string[];
  /** The configured API-key header, allowed beside the usual ones. */
  apiKeyHeader: string;
}

/** The request headers the real clients send (their components, curl-like tools), lower case. */
export const CORS_ALLOWED_HEADERS = [
  'content-type',
  'authorization',
  REAL_SERVICE_KEY_HEADER.toLowerCase(),
  DEFAULT_API_KEY_HEADER.toLowerCase(),
  'x-sendforsign-component',
];
export const CORS_ALLOWED_METHODS = ['GET', 'POST', 'PUT', 'DELETE'];
/** How long a browser may keep a preflight's answer, in seconds (Chromium keeps at most 7200). */
export const CORS_MAX_AGE = 600;

export function apiCors(options: CorsOptions): MiddlewareHandler {
  const allowed = new Set(options.origins);
  // The request's origin, when allowed; a request without one (curl, a server) gets `*`, which is true of it.
  const allowOrigin = (origin: string) =>
    origin === '' ? '*' : allowed.size === 0 || allowed.has(origin) ? origin : null;
  const preflight = cors({
    origin: allowOrigin,
    allowMethods: CORS_ALLOWED_METHODS,
    allowHeaders: [...new Set([...CORS_ALLOWED_HEADERS, options.apiKeyHeader.toLowerCase()])],
    maxAge: CORS_MAX_AGE,
    credentials: false,
  });
  return async (c, next) => {
    if (c.req.method === 'OPTIONS') return preflight(c, next);
    // Headers named before the answer exists ride on it as it is made. Hono's cors middleware sets them on `c.res`
    // instead, which makes every answer a copied Response off the server's fast path: create throughput fell
    // from 0.48x to 0.25x bare Hono with it (docs/benchmarks.md, "Performance devices").
    const origin = allowOrigin(c.req.header('origin') ?? '');
    if (origin) c.header('Access-Control-Allow-Origin', origin);
    c.header('Vary', 'Origin', { append: true });
    await next();
    // An answer made as a Response of its own (a document's bytes) did not take the headers named above.
    if (origin && !c.res.headers.has('access-control-allow-origin')) {
      c.res.headers.set('Access-Control-Allow-Origin', origin);
      c.res.headers.append('Vary', 'Origin');
    }
  };
}

/**
 * Which requests of the journal a reader asks for (GET /__sandbox/requests, docs/library.md "The request journal"):
 * the door a request came through, and the filter over path, method, action, status, time and tenant.
 */
import { ApiError, quote } from '../core/errors.js';
import type { Services } from '../store/services.js';

/**
 * Which door a request came through (docs/library.md, "The request journal"): `api` (/api, what an integration
 * calls), `control` (/__sandbox, the control API, scoped routes included) or `page` (the recipient page and the
 * other pages a browser opens).
 */
export const REQUEST_KINDS = ['api', 'control', 'page'] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];

export function requestKind(path: string): RequestKind {
  if (path === '/api' || path.startsWith('/api/')) return 'api';
  if (path === '/__sandbox' || path.startsWith('/__sandbox/')) return 'control';
  return 'page';
}

export interface JournalFilter {
  /** Only requests that came through this door. */
  kind?: RequestKind;
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

/** What a filter reads of a kept entry (the action as shown is asked of `actionOf`). */
interface Filtered {
  id: number;
  at: number;
  method: string;
  path: string;
  status: number;
  platformId: string | undefined;
}

/** A test of kept entries against `filter`; throws a 400 for a status or time it cannot read. */
export function matcher<E extends Filtered>(
  filter: JournalFilter,
  services: Pick<Services, 'store'>,
  actionOf: (entry: E) => string | undefined,
): (entry: E) => boolean {
  const tests: ((entry: E) => boolean)[] = [];
  if (filter.kind) {
    const kind = filter.kind;
    tests.push((e) => requestKind(e.path) === kind);
  }
  if (filter.path) {
    const path = filter.path;
    tests.push(path.endsWith('*') ? (e) => e.path.startsWith(path.slice(0, -1)) : (e) => e.path === path);
  }
  if (filter.method) {
    const method = filter.method.toUpperCase();
    tests.push((e) => e.method === method);
  }
  if (filter.action) tests.push((e) => actionOf(e) === filter.action);
  if (filter.status !== undefined) {
    const status = String(filter.status).toLowerCase();
    if (/^[1-5]xx$/.test(status)) tests.push((e) => Math.floor(e.status / 100) === Number(status[0]));
    else if (/^\d{3}$/.test(status)) tests.push((e) => e.status === Number(status));
    else
      throw ApiError.badRequest(`status must be a status like 404 or a class like 4xx (got ${quote(status)})`, [
        { path: 'status', message: 'Not a status' },
      ]);
  }
  if (filter.since !== undefined) {
    const since = String(filter.since);
    if (/^\d+$/.test(since)) tests.push((e) => e.id > Number(since));
    else {
      const ms = Date.parse(since);
      if (!Number.isFinite(ms))
        throw ApiError.badRequest(`since must be an ISO 8601 time or an entry id (got ${quote(since)})`, [
          { path: 'since', message: 'Not a time' },
        ]);
      tests.push((e) => e.at >= ms);
    }
  }
  if (filter.apiKey !== undefined) {
    const platformId = services.store.platforms.where('apiKey', filter.apiKey)[0]?.platformId;
    tests.push((e) => platformId !== undefined && e.platformId === platformId);
  }
  return (entry) => tests.every((t) => t(entry));
}

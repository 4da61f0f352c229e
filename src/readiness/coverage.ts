/** The report's `coverage` (docs/readiness.md): what the run called, the errors it met, the events it received. */
import type { Observed } from './observed.js';
import { getOrAdd } from '../core/maps.js';

export interface Coverage {
  /** Each operation called: method, path, action, how many times. */
  operations: { method: string; path: string; action?: string; count: number }[];
  /** Each error answer met: status, message, how many times. */
  errors: { status: number; message: string; count: number }[];
  /** Each webhook event: deliveries made, and deliveries the receiver acknowledged (2xx) at least once. */
  events: { event: string; delivered: number; accepted: number }[];
}

export function coverageOf(o: Observed): Coverage {
  // Operations by path, method and action, maps within maps: no key is made per request.
  const operations: Coverage['operations'] = [];
  const byPath = new Map<string, Map<string, Map<string, Coverage['operations'][number]>>>();
  const errors = new Map<string, Coverage['errors'][number]>();
  for (const r of o.requests) {
    const byAction = getOrAdd(
      getOrAdd(byPath, r.path, () => new Map()),
      r.method,
      () => new Map(),
    );
    const seen = byAction.get(r.action ?? '');
    if (seen) seen.count++;
    else {
      const op = { method: r.method, path: r.path, ...(r.action !== undefined ? { action: r.action } : {}), count: 1 };
      byAction.set(r.action ?? '', op);
      operations.push(op);
    }
    if (r.status < 400) continue;
    const message = r.message ?? '';
    const error = errors.get(`${r.status} ${message}`);
    if (error) error.count++;
    else errors.set(`${r.status} ${message}`, { status: r.status, message, count: 1 });
  }
  const events = new Map<string, Coverage['events'][number]>();
  for (const d of o.deliveries) {
    const e = events.get(d.event) ?? { event: d.event, delivered: 0, accepted: 0 };
    events.set(d.event, e);
    e.delivered++;
    if (d.attempts.some((a) => a.statusCode !== undefined && a.statusCode < 300 && a.statusCode >= 200)) e.accepted++;
  }
  const byCount = <T extends { count: number }>(a: T, b: T) => b.count - a.count;
  return {
    operations: operations.sort(byCount),
    errors: [...errors.values()].sort(byCount),
    events: [...events.values()],
  };
}

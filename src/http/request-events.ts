/**
 * Tells the event bus about each answered /api request (`api.requested`), for scenario reactions and expectations
 * (docs/scenarios.md). Only while `wanted()` says someone listens: otherwise a request costs one call.
 */
import type { MiddlewareHandler } from 'hono';
import type { EventBus } from '../core/event-bus.js';
import { operationOf } from '../core/operation.js';
import type { ApiVariables } from './variables.js';

export function requestEvents(bus: EventBus, wanted: () => boolean): MiddlewareHandler<{ Variables: ApiVariables }> {
  return async (c, next) => {
    // Asked before the request runs, so a request nobody listens for costs no promise of this middleware's own.
    if (!wanted() || !c.req.path.startsWith('/api')) return next();
    await next();
    const action = operationOf(parseJson(c.get('bodyText')));
    const platformId = c.get('op')?.principal?.platformId;
    bus.emit({
      type: 'api.requested',
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ...(action !== undefined ? { action } : {}),
      ...(platformId !== undefined ? { platformId } : {}),
    });
  };
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

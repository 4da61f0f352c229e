/**
 * Tells the event bus about each answered /api request (`api.requested`), for scenario reactions and expectations
 * (docs/scenarios.md). Only while `wanted()` says someone listens: otherwise a request costs one call.
 */
import type { MiddlewareHandler } from 'hono';
import type { EventBus } from '../core/event-bus.js';
import { operationOf } from '../core/operation.js';
import { ApiError } from '../core/errors.js';
import type { RequestEnv } from '../domain/request-facts.js';

export function requestEvents(bus: EventBus, wanted: () => boolean): MiddlewareHandler<RequestEnv> {
  return async (c, next) => {
    // Asked before the request runs, so a request nobody listens for costs no promise of this middleware's own.
    if (!wanted() || !c.req.path.startsWith('/api')) return next();
    await next();
    const body = c.get('body');
    const action = body ? body.operation : operationOf(parseJson(c.get('bodyText')));
    // The tenant of a caller whose credentials hold (the travel object's `caller`, worked out as it arrived).
    const caller = c.get('request').caller;
    const platformId = caller instanceof ApiError ? undefined : caller?.platformId;
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

/**
 * Tells the event bus about each answered /api request (`api.requested`), for scenario reactions and expectations
 * (docs/scenarios.md). Only while `wanted()` says someone listens: otherwise a request costs one call.
 */
import type { MiddlewareHandler } from 'hono';
import type { EventBus } from '../core/event-bus.js';
import { type RequestEnv, sentStatus } from '../domain/request-facts.js';

export function requestEvents(bus: EventBus, wanted: () => boolean): MiddlewareHandler<RequestEnv> {
  return async (c, next) => {
    // Asked before the request runs, so a request nobody listens for costs no promise of this middleware's own.
    if (!wanted() || !c.req.path.startsWith('/api')) return next();
    await next();
    // The travel object's operation and tenant (the `drain` stage made its body if no route did): the journal files
    // the request under the same tenant, a 401 for an expired token under that token's.
    const body = c.get('body');
    const action = body?.operation;
    const platformId = body?.tenant;
    bus.emit({
      type: 'api.requested',
      method: c.req.method,
      path: c.req.path,
      status: sentStatus(c.get('unanswered'), c.res),
      ...(action !== undefined ? { action } : {}),
      ...(platformId !== undefined ? { platformId } : {}),
    });
  };
}

/**
 * Tells the event bus about each answered /api request (`api.requested`), for scenario reactions and expectations
 * (docs/scenarios.md). Only while `wanted()` says someone listens: otherwise a request costs one call.
 */
import type { MiddlewareHandler } from 'hono';
import type { EventBus } from '../core/event-bus.js';
import { operationOf } from '../core/operation.js';
import { type RequestEnv, answeredTenant, sentStatus } from '../domain/request-facts.js';

export function requestEvents(bus: EventBus, wanted: () => boolean): MiddlewareHandler<RequestEnv> {
  return async (c, next) => {
    // Asked before the request runs, so a request nobody listens for costs no promise of this middleware's own.
    if (!wanted() || !c.req.path.startsWith('/api')) return next();
    await next();
    const body = c.get('body');
    const json = () => parseJson(c.get('bodyText'));
    const action = body ? body.operation : operationOf(json());
    // The tenant the journal files it under: a 401 for an expired token is that token's tenant's answer too.
    const platformId = answeredTenant(c.get('services'), c.get('request'), body, json);
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

function parseJson(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

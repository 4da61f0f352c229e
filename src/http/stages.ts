/**
 * The stages of a request, in the order they run (as WireMock's request phases). http/app.ts mounts a middleware per
 * stage from this list, so the order is this table's, not the order of lines in a file:
 *
 * | stage | on | what it works out or checks |
 * |---|---|---|
 * | `arrive` | every request | the travel object (domain/request-facts.ts): method, path, credentials, the caller on /api, the tenant, its clock and time |
 * | `record` | every request | the journal notes the request and its answer (journal/), scenarios hear /api requests (http/request-events.ts) |
 * | `drain` | every request | a body nobody read is read before the answer leaves, so the connection stays usable, and the travel object's body (operation, tenant) made from it when no route made it (http/body.ts) |
 * | `hosts` | every request | the Host allow-list (http/hosts.ts) |
 * | `same-origin` | /__sandbox, /sharing | no other site posts to the control API or the pages (http/same-origin.ts) |
 * | `content-types` | /__sandbox | the control API's bodies are JSON (or the dashboard's forms) |
 * | `cors` | /api | CORS, before the faults, so an injected refusal still reaches the page (http/cors.ts) |
 * | `trace` | /api | the request's W3C `traceparent`, and its span when tracing is on (http/trace.ts) |
 * | `faults` | /api | API faults: latency and refusals set for the request (http/api-faults.ts) |
 * | `rate-limit` | /api | the tenant's quota like a test mode: 429 past it, X-RateLimit-* while on (http/rate-limit.ts) |
 * | `route` | | the /api operation (http/router.ts: body, operation, caller, input, client, handler), a page or a control route |
 *
 * An /api route's own steps are named in http/router.ts; every refusal on the way is an ApiError, rendered once
 * (http/app.ts `onError`).
 */
import type { MiddlewareHandler } from 'hono';
import { monotonicNow } from '../core/wall-time.js';
import { readCredentials } from '../core/credentials.js';
import { type RequestEnv, arrivalFacts } from '../domain/request-facts.js';
import type { Services } from '../store/services.js';

export const REQUEST_STAGES = [
  'arrive',
  'record',
  'drain',
  'hosts',
  'same-origin',
  'content-types',
  'cors',
  'trace',
  'faults',
  'rate-limit',
  'route',
] as const;

export type RequestStage = (typeof REQUEST_STAGES)[number];

/** The `arrive` stage: the request's travel object, `c.var.request`, made once and read by every stage after. */
export function arrive(services: Services, apiKeyHeader: string): MiddlewareHandler<RequestEnv> {
  return (c, next) => {
    const path = c.req.path;
    c.set('services', services);
    c.set(
      'request',
      arrivalFacts(services, {
        method: c.req.method,
        path,
        started: monotonicNow(),
        credentials: readCredentials(c.req.raw.headers, apiKeyHeader),
        api: path.startsWith('/api/'),
      }),
    );
    return next();
  };
}

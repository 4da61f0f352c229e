/**
 * Traces on /api (docs/webhooks.md, "Traces"): a request's W3C `traceparent` (and `tracestate`) is where its work
 * hangs, carried by its operation context into the events it emits and so into every webhook delivery they cause.
 * With tracing on (`Tracer.exporting`), the request gets a span of its own, under the caller's or starting a new
 * trace, and its work hangs under that span; with tracing off, a request without `traceparent` carries none.
 */
import type { MiddlewareHandler } from 'hono';
import { type Tracer, parseTraceparent } from '../core/trace-context.js';
import type { RequestEnv } from '../domain/request-facts.js';

export function traceRequests(tracer: Tracer): MiddlewareHandler<RequestEnv> {
  return async (c, next) => {
    const caller = parseTraceparent(c.req.header('traceparent'), c.req.header('tracestate'));
    if (!tracer.exporting) {
      if (caller) c.set('trace', caller);
      return next();
    }
    const span = tracer.startSpan({
      name: `${c.req.method} ${c.req.path}`,
      kind: 'server',
      parent: caller,
      attributes: { 'http.request.method': c.req.method, 'url.path': c.req.path },
    });
    c.set('trace', {
      traceId: span.traceId,
      spanId: span.spanId,
      flags: caller?.flags ?? '01',
      ...(caller?.tracestate ? { tracestate: caller.tracestate } : {}),
    });
    try {
      await next();
    } finally {
      span.end({ status: c.res.status });
    }
  };
}

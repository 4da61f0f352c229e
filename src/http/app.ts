/**
 * The Hono app: mounts every /api resource and the /__sandbox control API, and renders every error in the
 * service's format in one place. Anything unexpected becomes a JSON 500 (never an HTML page or a dropped
 * connection), and the process stays up.
 */
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import type { ApiGate } from './faults.js';
import type { Services } from '../domain/context.js';
import { ApiError } from '../core/errors.js';
import { mountEndpoints, mountResource } from './router.js';
import { plainResources, resources } from '../resources/index.js';

export interface AppOptions {
  services: Services;
  maxBodyBytes: number;
  apiKeyHeader: string;
  control: Hono;
  /** Runs before every route (the request journal). */
  middleware?: MiddlewareHandler[];
  /** Runs on /api/* before the resources (API faults): inside the route, so it adds no middleware level. */
  apiGate?: ApiGate;
  /** Reports errors that are the sandbox's own fault (500s). */
  onInternalError?: (error: unknown) => void;
}

export function createApp(options: AppOptions): Hono {
  const app = new Hono();
  for (const middleware of options.middleware ?? []) app.use('*', middleware);
  for (const resource of resources) {
    mountResource(app, resource, options.services, { maxBodyBytes: options.maxBodyBytes, apiKeyHeader: options.apiKeyHeader, gate: options.apiGate });
  }
  for (const resource of plainResources) {
    mountEndpoints(app, resource, options.services, { maxBodyBytes: options.maxBodyBytes, apiKeyHeader: options.apiKeyHeader, gate: options.apiGate });
  }
  app.route('/__sandbox', options.control);

  app.notFound(async (c) => {
    // The API gate (faults) covers every /api path, known or not, as a middleware on /api/* did.
    const wait = options.apiGate && (c.req.path === '/api' || c.req.path.startsWith('/api/')) ? options.apiGate(c) : undefined;
    if (wait) {
      try {
        await wait;
      } catch (error) {
        return renderError(error, c);
      }
    }
    const hint = c.req.path.startsWith('/api/') ? `; the API paths are ${[...resources, ...plainResources].map((r) => r.path).join(', ')}` : '';
    return c.json({ code: 404, message: `No such path: ${c.req.method} ${c.req.path}${hint}` }, 404);
  });

  // Not-found answers render their own errors: Hono calls onError only for errors thrown by routes and middleware.
  const renderError = (error: unknown, c: Context): Response => {
    if (error instanceof ApiError) {
      for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
      return c.json(error.toBody(), error.status);
    }
    options.onInternalError?.(error);
    return c.json({ code: 500, message: `Internal sandbox error: ${error instanceof Error ? error.message : String(error)}` }, 500);
  };
  app.onError(renderError);
  return app;
}

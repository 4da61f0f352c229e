/**
 * The Hono app: mounts every /api resource and the /__sandbox control API, and renders every error in the
 * service's format in one place. Anything unexpected becomes a JSON 500 (never an HTML page or a dropped
 * connection), and the process stays up.
 */
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import type { Services } from '../store/services.js';
import { ApiError, errorBody } from '../core/errors.js';
import { mountEndpoints, mountResource } from './router.js';
import { plainResources, resources } from '../resources/index.js';
import { type DocumentRouteOptions, documentRouting } from './documents.js';
import { mountNotEmulated } from './not-emulated.js';
import { documentResources } from '../resources/documents.js';
import { NOT_EMULATED_PATHS } from '../resources/not-emulated.js';
import { readUnreadBody } from './body.js';
import { apiCors } from './cors.js';
import { traceRequests } from './trace.js';
import type { Tracer } from '../core/trace-context.js';
import { type HostOptions, hostGuard } from './hosts.js';
import { controlContentTypes, sameOriginOnly } from './same-origin.js';
import type { RequestEnv } from '../domain/request-facts.js';
import { REQUEST_STAGES, type RequestStage, arrive } from './stages.js';

export interface AppOptions {
  services: Services;
  maxBodyBytes: number;
  apiKeyHeader: string;
  /** The names the sandbox answers to (the Host allow-list); absent: every name (in-process use). */
  hosts?: HostOptions;
  /** The origins whose pages may call /api (`--cors-origin`); empty or absent: every origin. */
  corsOrigins?: readonly string[];
  /** `--public-url`, when given: the base of the absolute URLs answers hand out (http/public-url.ts). */
  publicUrl?: string | undefined;
  control: Hono;
  /** The pages for people: the recipient page, the dashboard and their assets (http/pages). */
  pages?: Hono;
  /** The `record` stage: the request journal and the request events, around everything after. */
  recorders?: MiddlewareHandler[];
  /** The `faults` stage: runs on /api/* before the resources (API faults), known paths or not. */
  apiFaults?: MiddlewareHandler;
  /** The `rate-limit` stage: the tenant's quota on /api/* (docs/readiness.md). */
  rateLimits?: MiddlewareHandler;
  /** The `trace` stage: each /api request's `traceparent`, and its span when tracing is on (http/trace.ts). */
  tracer?: Tracer;
  /** The document endpoints (upload_pdf, download_pdf, download_docx, the uploaded files). */
  documents?: DocumentRouteOptions;
  /** Reports errors that are the sandbox's own fault (500s). */
  onInternalError?: (error: unknown) => void;
}

/**
 * The app, in the order a request meets it: every error made an Error, the stages before the route
 * (REQUEST_STAGES, http/stages.ts), the route, and the answers for a path no route takes or an error thrown.
 */
export function createApp(options: AppOptions): Hono {
  const app = new Hono();
  app.use('*', thrownAsError);
  mountStages(app, options);
  mountRoute(app, options);
  const renderError = errorRenderer(options);
  app.notFound(notFound(app, options, renderError));
  app.onError(renderError);
  return app;
}

/**
 * Hono hands only Error instances to onError; anything else thrown (pdf-lib's image decoders throw strings) is made
 * one here, so it is answered and logged like any error, never as an empty 500.
 */
const thrownAsError: MiddlewareHandler = async (_c, next) => {
  try {
    await next();
  } catch (error) {
    throw error instanceof Error ? error : new Error(`a non-Error value was thrown: ${String(error)}`);
  }
};

/** The stages before the route, mounted in the order of REQUEST_STAGES (http/stages.ts), which says what each does. */
function mountStages(app: Hono, options: AppOptions): void {
  const sameOrigin = sameOriginOnly({ publicUrl: options.publicUrl });
  const stages: Record<Exclude<RequestStage, 'route'>, [string, MiddlewareHandler][]> = {
    arrive: [['*', arrive(options.services, options.apiKeyHeader)]],
    record: (options.recorders ?? []).map((recorder) => ['*', recorder]),
    drain: [['*', readUnreadBody(options.maxBodyBytes)]],
    hosts: options.hosts ? [['*', hostGuard(options.hosts)]] : [],
    'same-origin': [
      ['/__sandbox/*', sameOrigin],
      ['/sharing/*', sameOrigin],
    ],
    'content-types': [['/__sandbox/*', controlContentTypes({ pages: '/__sandbox/ui' })]],
    cors: [['/api/*', apiCors({ origins: options.corsOrigins ?? [], apiKeyHeader: options.apiKeyHeader })]],
    trace: options.tracer ? [['/api/*', traceRequests(options.tracer)]] : [],
    faults: options.apiFaults ? [['/api/*', options.apiFaults]] : [],
    'rate-limit': options.rateLimits ? [['/api/*', options.rateLimits]] : [],
  };
  for (const stage of REQUEST_STAGES)
    if (stage !== 'route') for (const [path, middleware] of stages[stage]) app.use(path, middleware);
}

/** The `route` stage: the /api operations, the pages, the control API. */
function mountRoute(app: Hono, options: AppOptions): void {
  const api = new Hono<RequestEnv>();
  const routing = {
    maxBodyBytes: options.maxBodyBytes,
    publicUrl: options.publicUrl,
    documents: options.documents && documentRouting(options.documents),
  };
  for (const resource of resources) mountResource(api, resource, routing);
  for (const resource of plainResources) mountEndpoints(api, resource, routing);
  if (options.documents) for (const resource of documentResources) mountEndpoints(api, resource, routing);
  mountNotEmulated(api);
  app.route('/', api);
  if (options.pages) app.route('/', options.pages);
  app.route('/__sandbox', options.control);
}

type ErrorRenderer = (error: unknown, c: Context) => Response;

/** An error in the service's format: an ApiError as itself (its headers too), anything else a JSON 500, reported. */
function errorRenderer(options: AppOptions): ErrorRenderer {
  return (error, c) => {
    if (error instanceof ApiError) {
      for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
      return c.json(error.toBody(), error.status);
    }
    options.onInternalError?.(error);
    return c.json(
      errorBody(500, `Internal sandbox error: ${error instanceof Error ? error.message : String(error)}`),
      500,
    );
  };
}

/**
 * A path no route takes: the one 405 for a known path asked with another method, naming the methods its routes
 * answer (a route that answers this method and still calls notFound, like an unknown asset, is a 404); else a 404
 * that lists the API's paths. Not-found answers render their own errors: Hono calls onError only for errors thrown by
 * routes and middleware.
 */
function notFound(app: Hono, options: AppOptions, renderError: ErrorRenderer): (c: Context) => Response {
  const envelopePaths = new Set(resources.map((r) => r.path));
  return (c) => {
    const allowed = allowedMethods(app, c.req.path);
    const method = c.req.method === 'HEAD' ? 'GET' : c.req.method;
    if (allowed.length > 0 && !allowed.includes(method)) {
      const path = c.req.path.slice(0, 200);
      const note = envelopePaths.has(c.req.path) ? ' (every operation is a POST)' : '';
      return renderError(
        new ApiError(
          405,
          `Method ${c.req.method} is not allowed on ${path}; use ${allowed.join(' or ')}${note}`,
          undefined,
          {
            Allow: allowed.join(', '),
          },
        ),
        c,
      );
    }
    const paths = [
      ...[...resources, ...plainResources].map((r) => r.path),
      ...(options.documents ? documentResources.map((r) => r.path) : []),
      ...NOT_EMULATED_PATHS,
    ];
    const hint = c.req.path.startsWith('/api/') ? `; the API paths are ${paths.join(', ')}` : '';
    // A path of thousands of characters is cut: an answer never echoes more than a line of input.
    const path = c.req.path.length > 200 ? `${c.req.path.slice(0, 200)}…` : c.req.path;
    return c.json(errorBody(404, `No such path: ${c.req.method} ${path}${hint}`), 404);
  };
}

/** The methods some route answers for this path (routes mounted for every method, like middleware, left out). */
function allowedMethods(app: Hono, path: string): string[] {
  const methods = new Set<string>();
  for (const route of app.routes) {
    if (route.method === 'ALL') continue;
    const pattern = new RegExp(
      `^${route.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z]+/g, '[^/]+')}/?$`,
    );
    if (pattern.test(path)) methods.add(route.method);
  }
  return [...methods];
}

/**
 * The HTTP app of one sandbox: the /api routes with their middleware (API faults, the journal, request events),
 * the control API, the pages, the documents and /openapi.json with /docs. Each routes module declares the routes
 * the journal leaves out; this collects them.
 */
import type { Hono } from 'hono';
import type { ResolvedConfig } from '../config/options.js';
import { faultMiddleware } from '../http/api-faults.js';
import { rateLimitMiddleware } from '../http/rate-limit.js';
import { createApp } from '../http/app.js';
import { CONTROL_API_NOT_JOURNALED, controlApiRoutes } from '../http/control-api/index.js';
import { PAGES_NOT_JOURNALED, pageRoutes } from '../http/pages/index.js';
import { requestEvents } from '../http/request-events.js';
import { journalSkips } from '../journal/not-journaled.js';
import { DOCS_NOT_JOURNALED, mountDocs } from '../openapi/routes.js';
import type { Renderer } from '../render/renderer.js';
import type { SandboxState } from './state.js';
import type { Subsystems } from './subsystems.js';

export function createSandboxApp(
  config: ResolvedConfig,
  state: SandboxState,
  subsystems: Subsystems,
  renderer: Renderer,
): Hono {
  const { services, documents, defaultAccount } = state;
  const { faults, rateLimits, control, scenarios, journal } = subsystems;
  const app = createApp({
    apiFaults: faultMiddleware(faults, { maxBodyBytes: config.maxBodyBytes }),
    rateLimits: rateLimitMiddleware(rateLimits, { maxBodyBytes: config.maxBodyBytes }),
    services,
    tracer: subsystems.tracer,
    maxBodyBytes: config.maxBodyBytes,
    apiKeyHeader: config.apiKeyHeader,
    corsOrigins: config.corsOrigins,
    hosts: { host: config.host, publicUrl: config.publicUrl, allowedHosts: config.allowedHosts },
    publicUrl: config.publicUrl,
    documents: { documents, maxUploadBytes: config.maxUploadBytes, renderer },
    control: controlApiRoutes({ control, scenarios, maxBodyBytes: config.maxBodyBytes }),
    pages: pageRoutes({
      services,
      control,
      renderer,
      scenarios,
      connection: { ...defaultAccount, apiKeyHeader: config.apiKeyHeader },
      maxBodyBytes: config.maxBodyBytes,
    }),
    recorders: [
      journal.middleware(journalSkips([CONTROL_API_NOT_JOURNALED, PAGES_NOT_JOURNALED, DOCS_NOT_JOURNALED])),
      requestEvents(services.bus, () => scenarios.wantsRequests()),
    ],
    onInternalError: (error) =>
      process.emitWarning(
        `esign-sandbox: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      ),
  });
  mountDocs(app, { apiKeyHeader: config.apiKeyHeader });
  return app;
}

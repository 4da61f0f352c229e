/**
 * GET /openapi.json and the docs page GET /docs (Swagger UI through @hono/swagger-ui). The document is built
 * once per sandbox, on the first request for it (building it converts every schema: work a start that never
 * serves it should not pay); only `servers` follows the address the caller used.
 *
 * The docs page loads Swagger UI's script and stylesheet from the jsDelivr CDN (that is how @hono/swagger-ui
 * works); offline, /docs shows a blank page while /openapi.json stays fully local.
 */
import type { Hono, MiddlewareHandler } from 'hono';

/** The Swagger UI release the docs page asks the CDN for. */
export const SWAGGER_UI_VERSION = '5.29.0';

export function mountDocs(app: Hono, options: { apiKeyHeader: string }): void {
  let document: Promise<Record<string, unknown>> | undefined;
  let page: Promise<MiddlewareHandler> | undefined;
  app.get('/openapi.json', async (c) => {
    document ??= import('./document.js').then(({ openApiDocument }) => openApiDocument({ apiKeyHeader: headerName(options.apiKeyHeader) }));
    return c.json({ ...(await document), servers: [{ url: new URL(c.req.url).origin, description: 'This sandbox' }] });
  });
  app.get('/docs', async (c, next) => {
    page ??= import('@hono/swagger-ui').then(({ swaggerUI }) => swaggerUI({ url: '/openapi.json', title: 'esign-sandbox API', version: SWAGGER_UI_VERSION }));
    return (await page)(c, next);
  });
}

/** `x-service-key` → `X-Service-Key`, as people write it. */
function headerName(header: string): string {
  return header
    .split('-')
    .map((part) => (part ? part[0]!.toUpperCase() + part.slice(1) : part))
    .join('-');
}

/**
 * GET /openapi.json and the docs page GET /docs (Swagger UI through @hono/swagger-ui). The document is built
 * once per sandbox; only `servers` follows the address the caller used.
 *
 * The docs page loads Swagger UI's script and stylesheet from the jsDelivr CDN (that is how @hono/swagger-ui
 * works); offline, /docs shows a blank page while /openapi.json stays fully local.
 */
import { swaggerUI } from '@hono/swagger-ui';
import type { Hono } from 'hono';
import { openApiDocument } from './document.js';

/** The Swagger UI release the docs page asks the CDN for. */
export const SWAGGER_UI_VERSION = '5.29.0';

export function mountDocs(app: Hono, options: { apiKeyHeader: string }): void {
  const document = openApiDocument({ apiKeyHeader: headerName(options.apiKeyHeader) });
  app.get('/openapi.json', (c) => c.json({ ...document, servers: [{ url: new URL(c.req.url).origin, description: 'This sandbox' }] }));
  app.get('/docs', swaggerUI({ url: '/openapi.json', title: 'esign-sandbox API', version: SWAGGER_UI_VERSION }));
}

/** `x-service-key` → `X-Service-Key`, as people write it. */
function headerName(header: string): string {
  return header
    .split('-')
    .map((part) => (part ? part[0]!.toUpperCase() + part.slice(1) : part))
    .join('-');
}

/**
 * GET /openapi.json and the docs page GET /docs (Swagger UI). The document is built once per sandbox, on the
 * first request for it (building it converts every schema: work a start that never serves it should not pay);
 * only `servers` follows the address the caller used.
 *
 * The docs page works offline: the sandbox serves the page and Swagger UI's script, stylesheet and icon itself
 * (GET /docs/assets/…), from the package's own build (dist/swagger-ui/, copied there by
 * scripts/copy-swagger-ui.mjs, so users never install `swagger-ui-dist`), read on the first request for each and
 * kept. Nothing on the page calls out: no CDN, no web fonts, and no validator badge (`validatorUrl: null`).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Context, Hono } from 'hono';
import { PACKAGE_ROOT, headerLabel } from '../config/options.js';
import { ApiError } from '../core/errors.js';
import type { NotJournaled } from '../journal/not-journaled.js';

/** The files of swagger-ui-dist the page uses, served at /docs/assets/<name>, with their content types. */
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/** The OpenAPI document and the docs page are reference material, not traffic to the API under test. */
export const DOCS_NOT_JOURNALED: NotJournaled = { paths: ['/openapi.json', '/docs'], under: ['/docs/'] };

export function mountDocs(app: Hono, options: { apiKeyHeader: string }): void {
  let document: Promise<Record<string, unknown>> | undefined;
  app.get('/openapi.json', async (c) => {
    document ??= import('./document.js').then(({ openApiDocumentInSteps }) =>
      openApiDocumentInSteps({ apiKeyHeader: headerLabel(options.apiKeyHeader) }),
    );
    return c.json({ ...(await document), servers: [{ url: new URL(c.req.url).origin, description: 'This sandbox' }] });
  });
  app.get('/docs', async (c) => {
    const { version } = await swaggerUi();
    c.header('Cache-Control', 'no-cache');
    return c.html(docsPage(version));
  });
  app.get('/docs/assets/:file', async (c) => {
    const file = c.req.param('file');
    const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
    if (!type) return c.notFound();
    const { version } = await swaggerUi();
    return serveAsset(c, file, type, version);
  });
}

/** Where the build put Swagger UI's files (scripts/copy-swagger-ui.mjs), and their version. */
const SWAGGER_UI = join(PACKAGE_ROOT, 'dist', 'swagger-ui');

/** The copied files' folder and version, looked up on the first request for the docs page or an asset. */
let located: Promise<{ root: string; version: string }> | undefined;
function swaggerUi(): Promise<{ root: string; version: string }> {
  located ??= (async () => {
    const text = await readFile(join(SWAGGER_UI, 'version.json'), 'utf8').catch(() => {
      throw new ApiError(503, 'The API reference is not built: run `npm run build` (it copies Swagger UI into dist/)');
    });
    return { root: SWAGGER_UI, version: (JSON.parse(text) as { version: string }).version };
  })();
  located.catch(() => (located = undefined)); // a failed look-up is retried by the next request
  return located;
}

/** The assets' bytes, each read on its first request and kept (they are the same for every sandbox). */
const contents = new Map<string, Promise<Uint8Array<ArrayBuffer>>>();

async function serveAsset(c: Context, file: string, type: string, version: string): Promise<Response> {
  // The page links each asset with ?v=<version>: such a URL never changes content, so it may be cached for good.
  // Any other URL of it is revalidated against the ETag (the package version names the content too).
  const etag = `"swagger-ui-dist-${version}"`;
  const headers = {
    'Content-Type': type,
    'Cache-Control': c.req.query('v') === version ? 'public, max-age=31536000, immutable' : 'public, no-cache',
    ETag: etag,
    'X-Content-Type-Options': 'nosniff',
  };
  if (
    c.req
      .header('If-None-Match')
      ?.split(/\s*,\s*/)
      .includes(etag)
  )
    return c.body(null, 304, headers);
  let bytes = contents.get(file);
  if (!bytes) {
    // readFile's Buffer sits on an ArrayBuffer of its own (never a SharedArrayBuffer).
    bytes = swaggerUi().then(({ root }) => readFile(join(root, file)) as Promise<Uint8Array<ArrayBuffer>>);
    contents.set(file, bytes);
    bytes.catch(() => contents.delete(file));
  }
  return c.body(await bytes, 200, headers);
}

/** The page: Swagger UI on /openapi.json, with every asset from this sandbox. */
function docsPage(version: string): string {
  const asset = (file: string) => `/docs/assets/${file}?v=${encodeURIComponent(version)}`;
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>esign-sandbox API</title>
    <link rel="icon" type="image/png" href="${asset('favicon-32x32.png')}" />
    <link rel="stylesheet" href="${asset('swagger-ui.css')}" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${asset('swagger-ui-bundle.js')}"></script>
    <script>
      window.onload = () => {
        window.ui = SwaggerUIBundle({ dom_id: '#swagger-ui', url: '/openapi.json', validatorUrl: null });
      };
    </script>
  </body>
</html>
`;
}

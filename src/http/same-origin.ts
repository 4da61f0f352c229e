/**
 * Cross-site request forgery defences (README "Security"). The control API, the dashboard and the recipient page
 * need no credentials, so a page on another origin must not be able to make a browser post to them: a form or a
 * no-cors fetch reaches the server even though CORS keeps the answer from the page.
 *
 * - `sameOriginOnly`: a state-changing request that a browser marks as coming from another site or origin
 *   (`Sec-Fetch-Site`, else `Origin`) is refused with 403. Requests without those headers (curl, test clients,
 *   servers) are not browsers' and pass.
 * - `controlContentTypes`: the control API takes JSON (and YAML for scenarios), never the content types a page may
 *   send without a preflight (text/plain, forms), even with an empty body.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { ApiError, quote } from '../core/errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** `publicUrl`: the origin pages are served from behind a proxy, accepted beside the request's own. */
export function sameOriginOnly(options: { publicUrl?: string | undefined }): MiddlewareHandler {
  const publicOrigin = options.publicUrl ? new URL(options.publicUrl).origin : undefined;
  return async (c, next) => {
    if (!SAFE_METHODS.has(c.req.method) && crossOrigin(c, publicOrigin)) {
      throw ApiError.forbidden(
        `Refused a ${c.req.method} to ${c.req.path.slice(0, 200)} from another site or origin: the control API, the dashboard and the recipient page act only for their own pages (use /api from other origins)`,
      );
    }
    await next();
  };
}

function crossOrigin(c: Context, publicOrigin: string | undefined): boolean {
  const site = c.req.header('sec-fetch-site');
  if (site !== undefined) return site !== 'same-origin' && site !== 'none';
  const origin = c.req.header('origin');
  if (origin === undefined) return false;
  return origin !== new URL(c.req.url).origin && origin !== publicOrigin;
}

/** Content types a page may send cross-origin without a preflight (and none at all, with a body). */
const JSON_OR_YAML = /^application\/(([a-z0-9.+-]*\+)?json|(x-)?yaml)\s*(;|$)/i;

/** `pages`: the dashboard's prefix, whose forms post form bodies (and are checked by `sameOriginOnly`). */
export function controlContentTypes(options: { pages: string }): MiddlewareHandler {
  return async (c, next) => {
    const path = c.req.path;
    const page = path === options.pages || path.startsWith(`${options.pages}/`);
    if (!page && !SAFE_METHODS.has(c.req.method)) {
      const type = c.req.header('content-type');
      // No content type is what curl sends with no body (`curl -X POST …/reset`); a body needs one.
      const hasBody = c.req.header('content-length') !== undefined && c.req.header('content-length') !== '0';
      if (type === undefined ? hasBody || c.req.header('transfer-encoding') !== undefined : !JSON_OR_YAML.test(type)) {
        throw new ApiError(
          415,
          `Content-Type must be application/json (or application/yaml for a scenario) on the control API (got ${type ? quote(type, 100) : 'none'})`,
        );
      }
    }
    await next();
  };
}

/**
 * What every sandbox page shares: the HTML shell, the Content-Security-Policy, and the assets (stylesheet and
 * scripts) served by the sandbox itself, so the pages work offline and nothing on them comes from elsewhere.
 */
import type { Context } from 'hono';
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';

export type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

/** Where the dashboard is served. */
export const DASHBOARD = '/__sandbox/ui';

/** Where the pages' assets are served (assets.ts). */
export const ASSETS = '/__sandbox/ui/assets';

/**
 * The sandbox's icon: a page with a signature stroke. Every page links it as a data: URI, so a browser asks for
 * no icon at all; `GET /favicon.ico` answers it too, for what a browser shows without a page of ours (JSON, PDFs).
 * Either way a visit leaves no 404 in the request journal (a test asserting `requests({ status: '4xx' })` is empty
 * stays true after opening a page).
 */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
  '<rect x="5" y="2" width="22" height="28" rx="3" fill="#2451c7"/>' +
  '<path d="M9 22c3-6 5-6 5-2s3 3 5-2 3 2 4 2" fill="none" stroke="#fff" stroke-width="2.2" stroke-linecap="round"/>' +
  '<path d="M9 8h14M9 12h10" stroke="#b9c8f2" stroke-width="2" stroke-linecap="round"/></svg>';

/** The icon as the `href` of a `<link rel="icon">`. */
export const FAVICON_HREF = `data:image/svg+xml,${encodeURIComponent(FAVICON_SVG)}`;

/**
 * No inline script or style at all, and nothing from another origin: a contract's HTML that slipped past the
 * sanitiser still could not run script. Images may be data: URIs (drawn signatures).
 */
export const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  // A PDF contract's pages are the sandbox's own PDF, shown by the browser's viewer (the recipient page).
  "object-src 'self'",
  "frame-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Sends a page with the sandbox's security headers. */
export function sendPage(
  c: Context,
  page: Html,
  status: 200 | 400 | 404 | 409 | 413 = 200,
): Response | Promise<Response> {
  c.header('Content-Security-Policy', CSP);
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Referrer-Policy', 'no-referrer');
  c.header('Cache-Control', 'no-store');
  return c.html(page, status);
}

export function shell(options: { title: string; body: Html; scripts?: string[]; bodyClass?: string }): Html {
  return html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${options.title} · esign-sandbox</title>
    <link rel="icon" type="image/svg+xml" href="${FAVICON_HREF}" />
    <link rel="stylesheet" href="${ASSETS}/pages.css" />
    ${(options.scripts ?? []).map((file) => html`<script src="${ASSETS}/${file}" defer></script>`)}
  </head>
  <body class="${options.bodyClass ?? ''}">
    ${options.body}
  </body>
</html>`;
}

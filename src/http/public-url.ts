/**
 * The base of the absolute URLs an answer hands out (links.ts builds them): `--public-url` when given, else the
 * origin this request came in on, so a client reaching the sandbox as `http://sandbox:4010` from a container gets
 * URLs it can fetch (docs/compatibility.md, "Document URLs and links").
 */
import type { Context } from 'hono';

export function publicBase(c: Context, configured: string | undefined): string {
  return configured ?? new URL(c.req.url).origin;
}

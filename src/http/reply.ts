/**
 * Sends what an /api handler answered (resources/action.ts `Reply`): JSON, JSON already serialised (long lists) or a
 * file, with the answer's compatibility warnings.
 */
import type { Context } from 'hono';
import type { RequestEnv } from '../domain/request-facts.js';
import { FileBody, RawJson, type Reply } from '../resources/action.js';

export function send(c: Context<RequestEnv>, result: Reply): Response {
  if (result.warnings?.length) warn(c, result.warnings);
  if (result.body instanceof RawJson)
    return c.body(result.body.bytes, result.status as 200, { 'Content-Type': 'application/json' });
  if (result.body instanceof FileBody) return sendFile(c, result.body);
  return c.json(result.body, result.status as 200);
}

/**
 * Compatibility warnings (docs/compatibility.md) as `X-Sandbox-Warning` headers, one per warning, and in the
 * request's variables for the request journal's entry.
 */
function warn(c: Context<RequestEnv>, warnings: readonly string[]): void {
  for (const w of warnings) c.header(SANDBOX_WARNING, w, { append: true });
  c.set('warnings', warnings);
}

export const SANDBOX_WARNING = 'X-Sandbox-Warning';

/** A file, named in Content-Disposition (its name made ASCII there, and in full UTF-8 beside it), never cached. */
function sendFile(c: Context, file: FileBody): Response {
  const { bytes, type, filename: name, disposition } = file;
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
    'content-type': type,
    'content-length': String(bytes.byteLength),
    'content-disposition': `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`,
    'cache-control': 'no-store',
  });
}

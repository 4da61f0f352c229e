/**
 * A page's form as posted (the dashboard's actions, the recipient page's sign/approve/lock). A body that says it is
 * a form but is not one (multipart without its boundary, broken parts) makes Hono's `parseBody()` throw a
 * TypeError, which was answered as a 500 "internal error" (found by the control API fuzzer at 2,000 runs): it is
 * the client's mistake, a 400 naming it (docs/errors.md).
 */
import type { Context } from 'hono';
import { ApiError } from '../../core/errors.js';

export async function readForm(c: Context): Promise<Record<string, string | File | (string | File)[]>> {
  try {
    return await c.req.parseBody();
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    throw ApiError.badRequest(
      `The form could not be read as ${c.req.header('content-type')?.split(';')[0]?.trim() || 'a form'}: ${error.message}`,
    );
  }
}

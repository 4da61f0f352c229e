/** Body handling for the control API: JSON like the API, but an empty body means `{}`. */
import type { Context } from 'hono';
import { readJsonObject } from '../body.js';

export function controlJson(c: Context, maxBytes: number): Promise<Record<string, unknown>> {
  return readJsonObject(c, maxBytes, { emptyAs: {} });
}

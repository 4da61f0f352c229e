/** Body handling for the control API: JSON like the API, but an empty body means `{}`. */
import type { Context } from 'hono';
import type { z } from 'zod';
import { readJsonObject } from '../body.js';
import { parseWith } from '../../core/validation.js';

export async function controlBody<S extends z.ZodType>(c: Context, schema: S, maxBytes: number): Promise<z.infer<S>> {
  return parseWith(schema, await readJsonObject(c.req.raw, maxBytes, { emptyAs: {} }));
}

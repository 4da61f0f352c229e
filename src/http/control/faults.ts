/** /__sandbox/faults: set API faults directly (the same format as a scenario's `faults:`), list them, clear them. */
import { Hono } from 'hono';
import { z } from 'zod';
import { ApiError } from '../../core/errors.js';
import type { Faults } from '../../faults/faults.js';
import { faultSpec } from '../../scenarios/schema.js';
import { parseWith } from '../../core/validation.js';
import { controlBody } from './body.js';
import { lazy } from '../../core/lazy.js';

const faultList = lazy(() => z.strictObject({ faults: z.array(faultSpec()).min(1) }));

export function faultRoutes(faults: Faults, maxBytes: number): Hono {
  const app = new Hono();
  app.get('/', (c) => c.json({ faults: faults.list() }));
  app.post('/', async (c) => {
    // One fault, or several as {"faults": [...]}.
    const raw = await controlBody(c, z.record(z.string(), z.unknown()), maxBytes);
    const specs = 'faults' in raw ? parseWith(faultList(), raw).faults : [parseWith(faultSpec(), raw)];
    const ids = specs.map((spec) => faults.add(spec));
    return c.json({ ids, faults: faults.list() }, 201);
  });
  app.delete('/', (c) => c.json({ removed: faults.clear() }));
  app.delete('/:id', (c) => {
    if (!faults.remove(c.req.param('id'))) throw ApiError.notFound(`No fault with id "${c.req.param('id')}"`);
    return c.json({ removed: 1 });
  });
  return app;
}

/**
 * A list of faults over HTTP: GET lists, POST adds one spec or several as `{"faults": [...]}`, DELETE removes all
 * or one. Serves /__sandbox/faults (API faults, the same format as a scenario's `faults:`) and
 * /__sandbox/webhook-faults (receiver faults, docs/webhooks.md).
 */
import { Hono } from 'hono';
import { controlJson } from './body.js';

export interface FaultListOps {
  list(): unknown[];
  add(input: unknown): string[];
  clear(): number;
  remove(id: string): void;
}

export function faultRoutes(ops: FaultListOps, maxBytes: number): Hono {
  const app = new Hono();
  app.get('/', (c) => c.json({ faults: ops.list() }));
  app.post('/', async (c) => {
    const ids = ops.add(await controlJson(c, maxBytes));
    return c.json({ ids, faults: ops.list() }, 201);
  });
  app.delete('/', (c) => c.json({ removed: ops.clear() }));
  app.delete('/:id', (c) => {
    ops.remove(c.req.param('id'));
    return c.json({ removed: 1 });
  });
  return app;
}

/**
 * Fault lists over HTTP: /faults (API faults, the same format as a scenario's `faults:`) and /webhook-faults
 * (receiver faults, docs/webhooks.md). GET lists, POST adds one spec or several as `{"faults": [...]}`, DELETE
 * removes all or one.
 */
import { Hono } from 'hono';
import type { Control } from '../../control/control.js';
import type { FaultOperations } from '../../control/faults.js';
import { controlJson } from '../body.js';

export function faultRoutes(control: Control, maxBytes: number): Hono {
  const app = new Hono();
  app.route('/faults', faultList(control.faults, maxBytes));
  app.route('/webhook-faults', faultList(control.webhooks.faults, maxBytes));
  return app;
}

function faultList(faults: FaultOperations<unknown>, maxBytes: number): Hono {
  const app = new Hono();
  app.get('/', (c) => c.json({ faults: faults.list() }));
  app.post('/', async (c) => {
    const ids = faults.add(await controlJson(c, maxBytes));
    return c.json({ ids, faults: faults.list() }, 201);
  });
  app.delete('/', (c) => c.json({ removed: faults.clear() }));
  app.delete('/:id', (c) => {
    faults.remove(c.req.param('id'));
    return c.json({ removed: 1 });
  });
  return app;
}

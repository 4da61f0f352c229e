/** /__sandbox/faults: set API faults directly (the same format as a scenario's `faults:`), list them, clear them. */
import { Hono } from 'hono';
import type { ControlService } from '../../control/service.js';
import { controlJson } from './body.js';

export function faultRoutes(control: ControlService, maxBytes: number): Hono {
  const app = new Hono();
  app.get('/', (c) => c.json({ faults: control.faults() }));
  app.post('/', async (c) => {
    const ids = control.addFaults(await controlJson(c, maxBytes));
    return c.json({ ids, faults: control.faults() }, 201);
  });
  app.delete('/', (c) => c.json({ removed: control.clearFaults() }));
  app.delete('/:id', (c) => {
    control.removeFault(c.req.param('id'));
    return c.json({ removed: 1 });
  });
  return app;
}

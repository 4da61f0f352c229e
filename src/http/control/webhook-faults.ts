/** /__sandbox/webhook-faults: receiver faults (docs/webhooks.md "Receiver faults"): set, list, remove. */
import { Hono } from 'hono';
import type { ControlService } from '../../control/service.js';
import { controlJson } from './body.js';

export function webhookFaultRoutes(control: ControlService, maxBytes: number): Hono {
  const app = new Hono();
  app.get('/', (c) => c.json({ faults: control.receiverFaults() }));
  app.post('/', async (c) => {
    const ids = control.addReceiverFaults(await controlJson(c, maxBytes));
    return c.json({ ids, faults: control.receiverFaults() }, 201);
  });
  app.delete('/', (c) => c.json({ removed: control.clearReceiverFaults() }));
  app.delete('/:id', (c) => {
    control.removeReceiverFault(c.req.param('id'));
    return c.json({ removed: 1 });
  });
  return app;
}

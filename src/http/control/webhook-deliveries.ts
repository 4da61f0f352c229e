/** /__sandbox/webhook-deliveries: the delivery log and redelivery (decisions §10, docs/webhooks.md). */
import { Hono } from 'hono';
import type { ControlService } from '../../control/service.js';

export function webhookDeliveryRoutes(control: ControlService): Hono {
  const app = new Hono();
  app.get('/', (c) => c.json({ deliveries: control.deliveries(c.req.query()) }));
  app.get('/:id', (c) => c.json(control.delivery(c.req.param('id'))));
  app.post('/:id/redeliver', async (c) => c.json(await control.redeliver(c.req.param('id'))));
  return app;
}

/** /__sandbox/webhook-deliveries: the delivery log and redelivery (decisions §10, docs/webhooks.md). */
import { Hono } from 'hono';
import { z } from 'zod';
import { ApiError } from '../../core/errors.js';
import { CONTRACT_EVENT_TYPES } from '../../core/events.js';
import { parseWith } from '../../core/validation.js';
import type { WebhookDispatcher } from '../../webhooks/dispatcher.js';
import { lazy } from '../../core/lazy.js';

export const filterQuery = lazy(() => z.object({
  webhookKey: z.string().min(1).optional(),
  event: z.enum(CONTRACT_EVENT_TYPES, `Must be one of ${CONTRACT_EVENT_TYPES.join(', ')}`).optional(),
  status: z.enum(['pending', 'delivered', 'failed'], 'Must be pending, delivered or failed').optional(),
  contractKey: z.string().min(1).optional(),
  clientKey: z.string().min(1).optional(),
}));

export function webhookDeliveryRoutes(dispatcher: WebhookDispatcher): Hono {
  const app = new Hono();
  app.get('/', (c) => {
    const filter = parseWith(filterQuery(), c.req.query());
    return c.json({ deliveries: dispatcher.deliveries(filter) });
  });
  app.get('/:id', (c) => {
    const delivery = dispatcher.delivery(c.req.param('id'));
    if (!delivery) throw ApiError.notFound(`Webhook delivery ${c.req.param('id')} not found`);
    return c.json(delivery);
  });
  app.post('/:id/redeliver', async (c) => c.json(await dispatcher.redeliver(c.req.param('id'))));
  return app;
}

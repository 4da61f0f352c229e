/**
 * What the sandbox captured, over HTTP: the outbox (/emails), the webhook delivery log with redelivery
 * (/webhook-deliveries, docs/webhooks.md) and the request journal (/requests). Filters are query parameters.
 */
import { Hono } from 'hono';
import type { Control } from '../../control/control.js';

export function capturedRoutes({ outbox, webhooks, journal }: Control): Hono {
  const app = new Hono();
  app.get('/emails', (c) => c.json({ emails: outbox.list(c.req.query()) }));
  app.delete('/emails', (c) => c.json({ cleared: outbox.clear() }));

  app.get('/webhook-deliveries', (c) => c.json({ deliveries: webhooks.deliveries(c.req.query()) }));
  app.get('/webhook-deliveries/:id', (c) => c.json(webhooks.delivery(c.req.param('id'))));
  app.post('/webhook-deliveries/:id/redeliver', async (c) => c.json(await webhooks.redeliver(c.req.param('id'))));

  app.get('/requests', (c) => {
    const { requests, capacity } = journal.list(c.req.query());
    return c.json({ requests, count: requests.length, capacity });
  });
  app.delete('/requests', (c) => c.json(journal.clear({ apiKey: c.req.query('apiKey') })));
  return app;
}

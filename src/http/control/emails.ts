/** GET /__sandbox/emails: the captured outbox (decisions §9, §10), filtered by query parameters. DELETE empties it. */
import { Hono } from 'hono';
import type { ControlService } from '../../control/service.js';

export function emailRoutes(control: ControlService): Hono {
  const app = new Hono();
  app.get('/', (c) => c.json({ emails: control.emails(c.req.query()) }));
  app.delete('/', (c) => c.json({ cleared: control.clearEmails() }));
  return app;
}

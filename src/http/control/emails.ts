/** GET /__sandbox/emails: the captured outbox (decisions §9, §10), filtered by query parameters. DELETE empties it. */
import { Hono } from 'hono';
import type { Outbox } from '../../outbox/outbox.js';

export function emailRoutes(outbox: Outbox): Hono {
  const app = new Hono();
  app.get('/', (c) => {
    const q = (name: string) => c.req.query(name) || undefined;
    return c.json({ emails: outbox.list({ to: q('to'), contractKey: q('contractKey'), recipientKey: q('recipientKey'), kind: q('kind') }) });
  });
  app.delete('/', (c) => {
    const cleared = outbox.size;
    outbox.clear();
    return c.json({ cleared });
  });
  return app;
}

/**
 * GET /__sandbox/sign/{recipientKey}: where request emails used to link. It now leads to the recipient page,
 * /sharing/<recipientKey> (decisions §13), so links from older emails and data files keep working.
 */
import { Hono } from 'hono';

export function signPageRoutes(): Hono {
  const app = new Hono();
  app.get('/:recipientKey', (c) => c.redirect(`/sharing/${encodeURIComponent(c.req.param('recipientKey'))}`, 301));
  return app;
}

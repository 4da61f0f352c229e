/**
 * Recipients and contracts over HTTP: act as a recipient (POST /recipients/{recipientKey}/{view|sign|approve|lock},
 * docs/lifecycle.md), inspect a contract (GET /contracts/{contractKey}), and the old sign-page address.
 */
import { Hono } from 'hono';
import type { Control } from '../../control/control.js';
import { ApiError, quote } from '../../core/errors.js';
import { VERBS, type Verb } from '../../domain/lifecycle-rules.js';
import { controlJson } from '../body.js';

export function recipientRoutes({ recipients, inspection }: Control, maxBytes: number): Hono {
  const app = new Hono();
  app.post('/recipients/:recipientKey/:verb', async (c) => {
    const verb = c.req.param('verb');
    if (!(VERBS as readonly string[]).includes(verb))
      throw ApiError.badRequest(`Unknown verb ${quote(verb)}; a recipient can ${VERBS.join(', ')}`);
    const body = await controlJson(c, maxBytes);
    return c.json(await recipients.actAndSettle(c.req.param('recipientKey'), verb as Verb, body));
  });
  app.get('/contracts/:contractKey', (c) => c.json(inspection.contract(c.req.param('contractKey'))));
  // Where request emails used to link: it now leads to the recipient page, /sharing/<recipientKey>
  // (docs/pages.md), so links from older emails and data files keep working.
  app.get('/sign/:recipientKey', (c) => c.redirect(`/sharing/${encodeURIComponent(c.req.param('recipientKey'))}`, 301));
  return app;
}

/** POST /__sandbox/recipients/{recipientKey}/{view|sign|approve|lock}: act as a recipient (decisions §6, §10). */
import { Hono } from 'hono';
import { ApiError, quote } from '../../core/errors.js';
import type { ControlService } from '../../control/service.js';
import { VERBS, type Verb } from '../../domain/lifecycle-rules.js';
import { controlJson } from './body.js';

export function recipientRoutes(control: ControlService, maxBodyBytes: number): Hono {
  const app = new Hono();
  app.post('/:recipientKey/:verb', async (c) => {
    const verb = c.req.param('verb');
    if (!(VERBS as readonly string[]).includes(verb))
      throw ApiError.badRequest(`Unknown verb ${quote(verb)}; a recipient can ${VERBS.join(', ')}`);
    const body = await controlJson(c, maxBodyBytes);
    return c.json(await control.actAndSettle(c.req.param('recipientKey'), verb as Verb, body));
  });
  return app;
}

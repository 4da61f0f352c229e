/** GET /__sandbox/contracts/{contractKey}: the whole record as the sandbox holds it (decisions §10). */
import { Hono } from 'hono';
import type { ControlService } from '../../control/service.js';

export function contractRoutes(control: ControlService): Hono {
  const app = new Hono();
  app.get('/:contractKey', (c) => c.json(control.contract(c.req.param('contractKey'))));
  return app;
}

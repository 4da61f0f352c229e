/** /__sandbox/requests: the request journal, filtered by query parameters. */
import { Hono } from 'hono';
import type { ControlService } from '../../control/service.js';

export function requestRoutes(control: ControlService): Hono {
  const app = new Hono();
  app.get('/', (c) => {
    const { requests, capacity } = control.requests(c.req.query());
    return c.json({ requests, count: requests.length, capacity });
  });
  app.delete('/', (c) => c.json(control.clearRequests({ apiKey: c.req.query('apiKey') })));
  return app;
}

/** /__sandbox/clock: read, advance, freeze, unfreeze, set (decisions §8, §10). */
import { Hono } from 'hono';
import type { ControlService } from '../../control/service.js';
import { controlJson } from './body.js';

export function clockRoutes(control: ControlService, maxBytes: number): Hono {
  const app = new Hono();
  app.get('/', (c) => c.json(control.clockState()));
  app.post('/advance', async (c) =>
    c.json(await control.advanceClock((await controlJson(c, maxBytes)) as { by: string })),
  );
  app.post('/freeze', (c) => c.json(control.freezeClock()));
  app.post('/unfreeze', (c) => c.json(control.unfreezeClock()));
  app.post('/set', async (c) => c.json(await control.setClock((await controlJson(c, maxBytes)) as { to: string })));
  return app;
}

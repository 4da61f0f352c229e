/** /__sandbox/clock: read, advance, freeze, unfreeze, set (decisions §8, §10). */
import { Hono } from 'hono';
import { z } from 'zod';
import { type Clock, parseDuration } from '../clock.js';
import { ApiError } from '../errors.js';
import { controlBody } from './json.js';

export const advanceBody = z.object({
  by: z.union([z.number().min(0), z.string().min(1)], 'Required: a duration like "90s", "30m", "2h", "1d" or a number of seconds'),
});
export const setBody = z.object({ to: z.union([z.string().min(1), z.number()], 'Required: an ISO 8601 time') });

export function clockRoutes(clock: Clock, maxBytes: number): Hono {
  const app = new Hono();
  app.get('/', (c) => c.json(clock.state()));
  app.post('/advance', async (c) => {
    const { by } = await controlBody(c, advanceBody, maxBytes);
    const ms = parseDuration(by);
    if (ms === undefined) {
      throw ApiError.badRequest(`Cannot read duration "${by}"; use e.g. "90s", "30m", "2h", "1d", "1h30m" or a number of seconds`, [
        { path: 'by', message: 'Not a duration' },
      ]);
    }
    await clock.advance(ms);
    return c.json(clock.state());
  });
  app.post('/freeze', (c) => {
    clock.freeze();
    return c.json(clock.state());
  });
  app.post('/unfreeze', (c) => {
    clock.unfreeze();
    return c.json(clock.state());
  });
  app.post('/set', async (c) => {
    const { to } = await controlBody(c, setBody, maxBytes);
    const ms = typeof to === 'number' ? to : Date.parse(to);
    if (!Number.isFinite(ms)) throw ApiError.badRequest(`Cannot read time "${to}"; use ISO 8601 like 2026-01-01T09:00:00Z`, [{ path: 'to', message: 'Not a time' }]);
    await clock.set(ms);
    return c.json(clock.state());
  });
  return app;
}

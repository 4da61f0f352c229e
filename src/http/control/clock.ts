/** /__sandbox/clock: read, advance, freeze, unfreeze, set (decisions §8, §10). */
import { Hono } from 'hono';
import { z } from 'zod';
import { type Clock, TIME_RANGE, inTimeRange, parseDuration } from '../../core/clock.js';
import { ApiError, quote } from '../../core/errors.js';
import { controlBody } from './body.js';
import { lazy } from '../../core/lazy.js';

export const advanceBody = lazy(() => z.object({
  by: z.union([z.number().min(0), z.string().min(1)], 'Required: a duration like "90s", "30m", "2h", "1d" or a number of seconds'),
}));
export const setBody = lazy(() => z.object({ to: z.union([z.string().min(1), z.number()], 'Required: an ISO 8601 time') }));

const LAST = new Date(TIME_RANGE.max).toISOString();

export function clockRoutes(clock: Clock, maxBytes: number): Hono {
  const app = new Hono();
  app.get('/', (c) => c.json(clock.state()));
  app.post('/advance', async (c) => {
    const { by } = await controlBody(c, advanceBody(), maxBytes);
    const ms = parseDuration(by);
    if (ms === undefined || !Number.isFinite(ms)) {
      throw ApiError.badRequest(`Cannot read duration ${quote(by)}; use e.g. "90s", "30m", "2h", "1d", "1h30m" or a number of seconds`, [
        { path: 'by', message: 'Not a duration' },
      ]);
    }
    // Every response prints times, so the clock never goes where a date cannot be printed.
    if (!inTimeRange(clock.now() + ms)) {
      throw ApiError.badRequest(`Advancing by ${quote(by)} would move the clock past ${LAST}, the last time the sandbox can show`, [
        { path: 'by', message: 'Too far' },
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
    const { to } = await controlBody(c, setBody(), maxBytes);
    const ms = typeof to === 'number' ? to : Date.parse(to);
    if (!Number.isFinite(ms)) throw ApiError.badRequest(`Cannot read time ${quote(to)}; use ISO 8601 like 2026-01-01T09:00:00Z`, [{ path: 'to', message: 'Not a time' }]);
    if (!inTimeRange(ms)) {
      throw ApiError.badRequest(`Time ${quote(to)} is outside the years 0000 to 9999 the sandbox can show`, [{ path: 'to', message: 'Out of range' }]);
    }
    await clock.set(ms);
    return c.json(clock.state());
  });
  return app;
}

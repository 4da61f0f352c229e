/**
 * The sandbox's state over HTTP: reset, new platforms, forced token expiry, snapshots (/state) and the clock
 * (/clock). Control bodies are JSON like the API's, but an empty body means `{}`.
 */
import { Hono } from 'hono';
import type { Control } from '../../control/control.js';
import { controlJson, readJsonObject } from '../body.js';

/** A snapshot can be far larger than an API request; it still has a ceiling so a runaway upload is refused. */
export const MIN_STATE_BODY_BYTES = 256 * 1024 * 1024;

export function stateRoutes({ state, clock }: Control, maxBytes: number): Hono {
  const app = new Hono();
  app.post('/reset', async (c) => {
    const result = await state.reset(await controlJson(c, maxBytes));
    return c.json({ status: 'reset', ...result, now: clock.state().now });
  });
  app.post('/tokens/expire', async (c) => c.json(state.expireTokens(await controlJson(c, maxBytes))));
  app.post('/platforms', async (c) => c.json(state.createPlatform(await controlJson(c, maxBytes)), 201));

  app.get('/state', (c) => c.json(state.snapshot()));
  app.put('/state', async (c) => {
    const snapshot = await state.restore(await readJsonObject(c, Math.max(maxBytes, MIN_STATE_BODY_BYTES)));
    const { store } = snapshot;
    return c.json({
      status: 'restored',
      counts: {
        platforms: Object.keys(store.platforms).length,
        clients: Object.keys(store.clients).length,
        contracts: Object.keys(store.contracts).length,
      },
      ...(snapshot.clock ? { now: snapshot.clock.now } : {}),
    });
  });

  app.get('/clock', (c) => c.json(clock.state()));
  app.post('/clock/advance', async (c) =>
    c.json(await clock.advance((await controlJson(c, maxBytes)) as { by: string })),
  );
  app.post('/clock/freeze', (c) => c.json(clock.freeze()));
  app.post('/clock/unfreeze', (c) => c.json(clock.unfreeze()));
  app.post('/clock/set', async (c) => c.json(await clock.set((await controlJson(c, maxBytes)) as { to: string })));
  return app;
}

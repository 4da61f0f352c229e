/** /__sandbox/state: the whole state as one JSON document, and putting such a document back (snapshots). */
import { Hono } from 'hono';
import type { ControlService } from '../../control/service.js';
import { readJsonObject } from '../body.js';

/** A snapshot can be far larger than an API request; it still has a ceiling so a runaway upload is refused. */
export const MIN_STATE_BODY_BYTES = 256 * 1024 * 1024;

export function stateRoutes(control: ControlService, maxBodyBytes: number): Hono {
  const app = new Hono();
  app.get('/', (c) => c.json(control.snapshot()));
  app.put('/', async (c) => {
    const snapshot = await control.restore(await readJsonObject(c, Math.max(maxBodyBytes, MIN_STATE_BODY_BYTES)));
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
  return app;
}

/** /__sandbox/state: the whole state as one JSON document, and putting such a document back (snapshots). */
import { Hono } from 'hono';
import { readJsonObject } from '../body.js';
import { parseWith } from '../../core/validation.js';
import { type Snapshot, checkSnapshot, snapshotSchema } from '../../store/snapshot.js';

/** A snapshot can be far larger than an API request; it still has a ceiling so a runaway upload is refused. */
export const MIN_STATE_BODY_BYTES = 256 * 1024 * 1024;

export interface StateDeps {
  maxBodyBytes: number;
  snapshot(): Snapshot;
  restore(snapshot: Snapshot): Promise<void>;
}

export function stateRoutes(deps: StateDeps): Hono {
  const app = new Hono();
  app.get('/', (c) => c.json(deps.snapshot()));
  app.put('/', async (c) => {
    const body = await readJsonObject(c.req.raw, Math.max(deps.maxBodyBytes, MIN_STATE_BODY_BYTES));
    const snapshot = parseWith(snapshotSchema(), body) as unknown as Snapshot;
    checkSnapshot(snapshot);
    await deps.restore(snapshot);
    const { store } = snapshot;
    return c.json({
      status: 'restored',
      counts: { platforms: Object.keys(store.platforms).length, clients: Object.keys(store.clients).length, contracts: Object.keys(store.contracts).length },
      ...(snapshot.clock ? { now: snapshot.clock.now } : {}),
    });
  });
  return app;
}

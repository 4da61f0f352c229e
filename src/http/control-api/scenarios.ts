/**
 * /__sandbox/scenarios: list bundled and active scenarios, load one (a bundled name or YAML text), unload.
 * YAML may come as JSON `{"yaml": "..."}` or as the raw body with a YAML content type, so
 * `curl --data-binary @my.yaml -H 'content-type: application/yaml'` works.
 */
import { Hono } from 'hono';
import { ApiError } from '../../core/errors.js';
import { parseWith } from '../../core/validation.js';
import { loadBody } from '../../control/schemas.js';
import type { ScenarioSummary } from '../../control/sandbox-control.js';
import type { ScenarioEngine } from '../../scenarios/engine.js';
import { ScenarioError, scenarioRefusal } from '../../scenarios/load.js';
import { readBodyText, readJsonObject } from '../body.js';

export function scenarioRoutes(engine: ScenarioEngine, maxBytes: number): Hono {
  const app = new Hono();
  app.get('/', async (c) => c.json(await engine.list()));
  app.get('/:name', (c) => c.json(engine.get(c.req.param('name'))));
  app.post('/', async (c) => {
    let load: () => Promise<ScenarioSummary>;
    if (/yaml/i.test(c.req.header('content-type') ?? '')) {
      const text = await readBodyText(c, maxBytes);
      if (text.trim() === '') throw ApiError.badRequest('Request body is empty; send scenario YAML');
      load = () => engine.loadText(text);
    } else {
      const body = parseWith(loadBody(), await readJsonObject(c, maxBytes));
      load = body.name !== undefined ? () => engine.loadBundled(body.name!) : () => engine.loadText(body.yaml!);
    }
    try {
      return c.json(await load(), 201);
    } catch (error) {
      throw error instanceof ScenarioError ? scenarioRefusal(error) : error;
    }
  });
  app.delete('/', (c) => c.json({ unloaded: engine.unloadAll() }));
  app.delete('/:name', (c) => c.json(engine.unload(c.req.param('name'))));
  return app;
}

/**
 * /__sandbox/scenarios: list bundled and active scenarios, load one (a bundled name or YAML text), unload.
 * YAML may come as JSON `{"yaml": "..."}` or as the raw body with a YAML content type, so
 * `curl --data-binary @my.yaml -H 'content-type: application/yaml'` works.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { ApiError } from '../../core/errors.js';
import { readBodyText, readJsonObject } from '../body.js';
import { parseWith } from '../../core/validation.js';
import { type ScenarioEngine, ScenarioError } from '../../scenarios/engine.js';
import { formatProblem, parseScenario } from '../../scenarios/load.js';
import { lazy } from '../../core/lazy.js';

export const loadBody = lazy(() => z
  .strictObject({
    name: z.string().min(1).optional(),
    yaml: z.string().min(1).optional(),
  })
  .refine((b) => (b.name === undefined) !== (b.yaml === undefined), { message: 'Give exactly one of name (a bundled scenario) or yaml (scenario text)' }));

export function scenarioRoutes(engine: ScenarioEngine, maxBytes: number): Hono {
  const app = new Hono();
  app.get('/', async (c) => c.json(await engine.list()));
  app.get('/:name', (c) => c.json(engine.get(c.req.param('name'))));
  app.post('/', async (c) => {
    const type = c.req.header('content-type') ?? '';
    let read: () => ReturnType<ScenarioEngine['read']>;
    if (/yaml|text\/plain/i.test(type)) {
      const text = await readYaml(c.req.raw, maxBytes);
      read = async () => ({ scenario: await parseScenario(text, '<request>'), source: 'request' });
    } else {
      const body = parseWith(loadBody(), await readJsonObject(c.req.raw, maxBytes));
      read = body.name !== undefined ? () => engine.readBundled(body.name!) : async () => ({ scenario: await parseScenario(body.yaml!, '<request>'), source: 'request' });
    }
    try {
      const { scenario, source } = await read();
      return c.json(await engine.activate(scenario, source), 201);
    } catch (error) {
      if (error instanceof ScenarioError) throw invalid(error);
      throw error;
    }
  });
  app.delete('/', (c) => c.json({ unloaded: engine.unloadAll() }));
  app.delete('/:name', (c) => c.json(engine.unload(c.req.param('name'))));
  return app;
}

/** The loader's messages as a 400: the message lists them; `errors` carries each with its key path. */
export function invalid(error: ScenarioError): ApiError {
  const file = error.problems[0]?.file ?? '<request>';
  return ApiError.badRequest(
    `Scenario ${file} is invalid:\n${error.problems.map(formatProblem).join('\n')}`,
    error.problems.map((p) => ({ path: p.path, message: `line ${p.line}, column ${p.col}: ${p.message}` })),
  );
}

/** Scenario YAML sent as the raw body, within the same size limit as every other body. */
async function readYaml(request: Request, maxBytes: number): Promise<string> {
  const text = await readBodyText(request, maxBytes);
  if (text.trim() === '') throw ApiError.badRequest('Request body is empty; send scenario YAML');
  return text;
}

/**
 * Scenarios (docs/scenarios.md): list bundled and active ones, load one (a bundled name or YAML text, as JSON or as
 * the raw body with a YAML content type, so `curl --data-binary @my.yaml -H 'content-type: application/yaml'`
 * works), look at one, unload. Scoped, a scenario plays for the tenant only: its rules see the tenant's recipients,
 * its steps and faults act on its records and requests, on its clock.
 */
import type { BundledScenario, ScenarioSummary } from '../control/sandbox-control.js';
import { loadBody } from '../control/schemas.js';
import { ApiError } from '../core/errors.js';
import { parseWith } from '../core/validation.js';
import { isScenarioFile, readScenarioText } from './scenario-files.js';
import { NAME_ONLY } from '../scenarios/catalog.js';
import { ScenarioError, scenarioRefusal } from '../scenarios/load.js';
import { type ControlRequest, type ControlTable, type ControlWorld, wrappedIn } from './operation.js';

/** The body a load sends: a bare lowercase name is a bundled scenario, anything else is YAML. */
function loadRequest(nameOrYaml: string): Partial<ControlRequest> {
  const text = nameOrYaml.trim();
  return { body: NAME_ONLY.test(text) ? { name: text } : { yaml: nameOrYaml } };
}

/**
 * The longest scenario YAML the control API reads. The yaml parser runs on the main thread at ~4 µs a character of
 * structure: 26 KB of rules stalled every other request for ~110 ms, a 10 MB file ~850 ms, 10,000 nested `[` ~90 ms.
 * The bundled scenarios are 1-2 KB. A file given at start (--scenario) or to the library is read without this limit.
 */
export const MAX_SCENARIO_TEXT = 16 * 1024;

function checkedText(yaml: string): string {
  if (yaml.length > MAX_SCENARIO_TEXT)
    throw ApiError.badRequest(
      `Scenario YAML is too long: ${yaml.length} characters, the limit is ${MAX_SCENARIO_TEXT} over the control API; load a longer file at start with --scenario (docs/scenarios.md)`,
    );
  return yaml;
}

/** A scenario is refused with its problems (line, column, key path) in the error's `errors`. */
async function load(r: ControlRequest, { scenarios, tenant }: ControlWorld): Promise<ScenarioSummary> {
  try {
    if (typeof r.body === 'string') {
      if (r.body.trim() === '') throw ApiError.badRequest('Request body is empty; send scenario YAML');
      return await scenarios.loadText(checkedText(r.body), tenant);
    }
    const body = parseWith(loadBody(), r.body);
    return body.name !== undefined
      ? await scenarios.loadBundled(body.name, tenant)
      : await scenarios.loadText(checkedText(body.yaml!), tenant);
  } catch (error) {
    throw error instanceof ScenarioError ? scenarioRefusal(error) : error;
  }
}

export const scenarioOps = {
  'scenarios.list': {
    tool: 'list_scenarios',
    route: 'GET /scenarios',
    summary: 'The bundled scenarios and the active ones (scoped: the tenant’s)',
    answer: { bundled: [{ name: 'happy-path', description: 'Every recipient acts at once, in order' }], active: [] },
    handle: (_r, { scenarios, tenant }): Promise<{ bundled: BundledScenario[]; active: ScenarioSummary[] }> =>
      scenarios.list(tenant),
  },
  'scenarios.load': {
    tool: 'load_scenario',
    route: 'POST /scenarios',
    read: 'scenario',
    summary:
      'Load a scenario: a bundled name, or YAML text (as JSON {"yaml"}, or the raw body with a YAML content type)',
    body: loadBody,
    example: { name: 'happy-path' },
    status: 201,
    answer: { name: 'happy-path', source: 'bundled' },
    // A path to a .yaml/.yml file is read here, on the caller's machine: the control API never reads paths.
    request: async (nameOrYaml) =>
      isScenarioFile(nameOrYaml) ? { body: { yaml: await readScenarioText(nameOrYaml) } } : loadRequest(nameOrYaml),
    handle: load,
    local: ({ scenarios, tenant }, nameOrYaml) =>
      isScenarioFile(nameOrYaml) ? scenarios.loadFile(nameOrYaml.trim(), tenant) : scenarios.load(nameOrYaml, tenant),
  },
  'scenarios.loadFile': {
    tool: 'load_scenario',
    route: 'POST /scenarios',
    read: 'scenario',
    summary: 'Load a scenario file (read by the caller, sent as YAML)',
    request: async (path) => ({ body: { yaml: await readScenarioText(path) } }),
    handle: load,
    local: ({ scenarios, tenant }, path) => scenarios.loadFile(path, tenant),
  },
  'scenarios.get': {
    tool: 'scenario_status',
    route: 'GET /scenarios/{name}',
    summary: 'One active scenario: its rules, pending steps, log and expectations (met, pending or failed)',
    answer: {
      name: 'receiver-down-after-last-signature',
      source: 'bundled:receiver-down-after-last-signature',
      loadedAt: '2026-03-01T09:00:00.000Z',
      rules: 1,
      steps: 1,
      pendingTimers: 0,
      faults: [],
      receiverFaults: [],
      notes: [],
      log: [
        {
          at: '2026-03-01T09:05:00.000Z',
          clock: 'sandbox',
          cause: 'scenario:receiver-down-after-last-signature:receiver-down',
          what: 'webhookOutage: every webhook down (status 503) until 2026-03-01T15:05:00.000Z (reacting to contract.fully_signed of "Lease")',
          outcome: 'done',
        },
      ],
      expectations: [
        {
          id: 'fully-signed-delivered',
          status: 'met',
          evidence: 'delivery dlv_3 of contract.fully_signed to W1a2b3c answered 200 at 2026-03-01T17:05:00.000Z',
        },
      ],
    },
    request: (name) => ({ params: { name } }),
    handle: (r, { scenarios, tenant }) => scenarios.get(r.params.name!, tenant),
  },
  'scenarios.unload': {
    tool: 'unload_scenario',
    route: 'DELETE /scenarios/{name}',
    summary: 'Unload a scenario: pending steps, faults and outages end; past effects stay',
    request: (name) => ({ params: { name } }),
    handle: (r, { scenarios, tenant }) => scenarios.unload(r.params.name!, tenant),
  },
  'scenarios.unloadAll': {
    tool: 'unload_all_scenarios',
    route: 'DELETE /scenarios',
    summary: 'Unload every active scenario (scoped: the tenant’s)',
    answer: { unloaded: 0 },
    ...wrappedIn('unloaded', (_r, { scenarios, tenant }) => scenarios.unloadAll(tenant)),
  },
} satisfies Partial<ControlTable>;

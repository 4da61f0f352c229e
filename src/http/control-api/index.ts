/**
 * The control API under /__sandbox (docs/library.md): the sandbox-only operations over HTTP. JSON in, JSON out,
 * errors in the same format as the API. No credentials: it is a local test tool. Each route is thin: it reads the
 * request and calls one control operation (control/control.ts), which validates and acts. One file per part:
 * state.ts (reset, platforms, tokens, snapshots, clock), recipients.ts, captured.ts (emails, deliveries,
 * requests), faults.ts (API and receiver faults), scenarios.ts.
 */
import { Hono } from 'hono';
import type { Control } from '../../control/control.js';
import type { ScenarioEngine } from '../../scenarios/engine.js';
import { capturedRoutes } from './captured.js';
import { faultRoutes } from './faults.js';
import { recipientRoutes } from './recipients.js';
import { scenarioRoutes } from './scenarios.js';
import { stateRoutes } from './state.js';

export interface ControlApiDeps {
  control: Control;
  scenarios: ScenarioEngine;
  maxBodyBytes: number;
}

export function controlApiRoutes(deps: ControlApiDeps): Hono {
  const { control, maxBodyBytes } = deps;
  const app = new Hono();
  // First contact: where everything is (GET / leads to the dashboard).
  app.get('/', (c) => c.json(welcome(new URL(c.req.url).origin)));
  app.get('/health', (c) => c.json(control.state.health()));
  app.route('/', stateRoutes(control, maxBodyBytes));
  app.route('/', recipientRoutes(control, maxBodyBytes));
  app.route('/', capturedRoutes(control));
  app.route('/', faultRoutes(control, maxBodyBytes));
  app.route('/scenarios', scenarioRoutes(deps.scenarios, maxBodyBytes));
  return app;
}

/** What `GET /__sandbox` answers: pointers to the dashboard, the API, the control API and the docs. */
export function welcome(origin: string) {
  return {
    name: 'esign-sandbox',
    message:
      'A local sandbox of the Contract Signing Service API. The API is under /api, the sandbox control API under /__sandbox.',
    dashboard: `${origin}/__sandbox/ui`,
    api: `${origin}/api`,
    control: `${origin}/__sandbox`,
    health: `${origin}/__sandbox/health`,
    docs: `${origin}/docs`,
    openapi: `${origin}/openapi.json`,
  };
}

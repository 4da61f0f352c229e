/**
 * The control API under /__sandbox (decisions §10): everything that exists only in the sandbox. JSON in, JSON
 * out, errors in the same format as the API. No credentials: it is a local test tool. Each route is thin: it reads
 * the request and calls one method of the control service (control/service.ts), which validates and acts.
 */
import { Hono } from 'hono';
import type { ControlService } from '../../control/service.js';
import type { ScenarioEngine } from '../../scenarios/engine.js';
import { controlJson } from './body.js';
import { clockRoutes } from './clock.js';
import { contractRoutes } from './contracts.js';
import { emailRoutes } from './emails.js';
import { faultRoutes } from './faults.js';
import { recipientRoutes } from './recipients.js';
import { requestRoutes } from './requests.js';
import { scenarioRoutes } from './scenarios.js';
import { signPageRoutes } from './sign-page.js';
import { stateRoutes } from './state.js';
import { webhookDeliveryRoutes } from './webhook-deliveries.js';

export interface ControlRoutesDeps {
  control: ControlService;
  scenarios: ScenarioEngine;
  maxBodyBytes: number;
  /** The address links point at. */
  baseUrl(): string;
}

export function controlRoutes(deps: ControlRoutesDeps): Hono {
  const { control, maxBodyBytes } = deps;
  const app = new Hono();
  // First contact: where everything is (GET / leads to the dashboard).
  app.get('/', (c) => c.json(welcome(new URL(c.req.url).origin)));
  app.get('/health', (c) => c.json(control.health()));
  app.post('/reset', async (c) => {
    const result = await control.reset(await controlJson(c, maxBodyBytes));
    return c.json({ status: 'reset', ...result, now: control.clockState().now });
  });
  app.post('/tokens/expire', async (c) => c.json(control.expireTokens(await controlJson(c, maxBodyBytes))));
  app.post('/platforms', async (c) => c.json(control.createPlatform(await controlJson(c, maxBodyBytes)), 201));
  app.route('/clock', clockRoutes(control, maxBodyBytes));
  app.route('/requests', requestRoutes(control));
  app.route('/state', stateRoutes(control, maxBodyBytes));
  app.route('/scenarios', scenarioRoutes(deps.scenarios, maxBodyBytes));
  app.route(
    '/faults',
    faultRoutes(
      {
        list: () => control.faults(),
        add: (input) => control.addFaults(input),
        clear: () => control.clearFaults(),
        remove: (id) => control.removeFault(id),
      },
      maxBodyBytes,
    ),
  );
  app.route('/recipients', recipientRoutes(control, maxBodyBytes));
  app.route('/contracts', contractRoutes(control));
  app.route('/emails', emailRoutes(control));
  app.route('/sign', signPageRoutes());
  app.route('/webhook-deliveries', webhookDeliveryRoutes(control));
  app.route(
    '/webhook-faults',
    faultRoutes(
      {
        list: () => control.receiverFaults(),
        add: (input) => control.addReceiverFaults(input),
        clear: () => control.clearReceiverFaults(),
        remove: (id) => control.removeReceiverFault(id),
      },
      maxBodyBytes,
    ),
  );
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

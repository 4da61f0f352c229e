/**
 * The sandbox's state: health, reset (everything, or one tenant), new tenants, forced token expiry, snapshots, and
 * a contract as the sandbox holds it.
 */
import { expireBody, platformBody, resetBody } from '../control/schemas.js';
import { emptyData } from '../store/records.js';
import { snapshotSchema } from '../store/snapshot.js';
import { NOW } from './examples.js';
import { type ControlTable, reshaped } from './operation.js';

export const stateOps = {
  health: {
    tool: 'health',
    route: 'GET /health',
    summary: 'Ready check: answers 200 once the sandbox serves requests',
    answer: {
      status: 'ok',
      version: '0.4.0',
      now: NOW,
      clock: 'frozen',
      persistent: false,
      counts: { platforms: 1, clients: 1, contracts: 0, webhooks: 0 },
    },
    handle: (_r, { control }) => control.state.health(),
  },
  reset: {
    tool: 'reset',
    route: 'POST /reset',
    summary: 'Back to the seeded state; with apiKey (or scoped), only that platform (tenant)',
    description:
      'Without a body everything goes back to the fixtures: records, timers, emails, deliveries and the journal. With `{"apiKey": ...}`, or under /__sandbox/platforms/{apiKey}, only that platform\'s records are reset (to its fixture records, or to none for a platform made with POST /__sandbox/platforms), and its timers, emails, deliveries and journal entries dropped; other platforms are untouched. A tenant keeps its own clock.',
    body: resetBody,
    example: { apiKey: 'sandboxApiKey' },
    answer: {
      status: 'reset',
      scope: 'platform',
      apiKey: 'sandboxApiKey',
      platformId: 'P1a2b3c',
      removed: 12,
      restored: 9,
      now: NOW,
    },
    request: (options = {}) => ({ body: options.apiKey !== undefined ? { apiKey: options.apiKey } : {} }),
    ...reshaped(
      async (r, { control, tenant }) => {
        const result = await control.state.reset(r.body as { apiKey?: string }, tenant);
        return { status: 'reset', ...result, now: control.clock.state(tenant).now };
      },
      ({ status: _s, now: _n, ...result }) => result,
    ),
  },
  createPlatform: {
    tool: 'create_tenant',
    route: 'POST /platforms',
    summary: 'A new isolated platform account (tenant), e.g. one per test; with "clock", its own clock',
    description:
      'A tenant with `"clock": "frozen"` (or `"real"`) has its own clock, starting at `start` (ISO 8601; default: the sandbox clock\'s time): everything of the tenant follows it, and advancing it runs only the tenant\'s timers (docs/library.md, "Parallel tests"). Without `clock` the tenant follows the sandbox clock until its first scoped clock operation.',
    body: platformBody,
    example: { name: 'contract tests', clock: 'frozen', start: '2026-03-01T09:00:00Z' },
    status: 201,
    answer: {
      platformId: 'P1a2b3c',
      apiKey: 'pkA1b2C3',
      secret: 'skD4e5F6',
      clock: { now: NOW, mode: 'frozen', pendingTimers: 0, own: true },
    },
    request: (input = {}) => ({ body: input }),
    handle: (r, { control }) => control.state.createPlatform(r.body as object),
  },
  expireTokens: {
    tool: 'expire_tokens',
    route: 'POST /tokens/expire',
    summary: 'Force-expire one token, or every live token when none is named (scoped: the tenant’s)',
    body: expireBody,
    example: {},
    answer: { expired: 3 },
    request: (token) => ({ body: token !== undefined ? { token } : {} }),
    handle: (r, { control, tenant }) => control.state.expireTokens(r.body as { token?: string }, tenant),
  },
  snapshot: {
    tool: 'snapshot',
    route: 'GET /state',
    summary: 'The whole state (every record and the clocks) as one snapshot document',
    answer: {
      format: 'esign-sandbox-state',
      version: 1,
      savedAt: NOW,
      clock: { now: NOW, mode: 'frozen' },
      store: { version: 1, platforms: {}, clients: {} },
    },
    handle: (_r, { control }) => control.state.snapshot(),
  },
  restore: {
    tool: 'restore_snapshot',
    route: 'PUT /state',
    read: 'snapshot',
    summary: 'Restore a snapshot taken with GET /__sandbox/state (validated first; refused whole when wrong)',
    body: snapshotSchema,
    example: { version: 1, clock: { now: NOW, mode: 'frozen' }, store: emptyData() },
    answer: { status: 'restored', counts: { platforms: 1, clients: 1, contracts: 4 }, now: NOW },
    request: (snapshot) => ({ body: snapshot }),
    ...reshaped(
      async (r, { control }) => {
        const snapshot = await control.state.restore(r.body);
        const { store } = snapshot;
        return {
          status: 'restored',
          counts: {
            platforms: Object.keys(store.platforms).length,
            clients: Object.keys(store.clients).length,
            contracts: Object.keys(store.contracts).length,
          },
          ...(snapshot.clock ? { now: snapshot.clock.now } : {}),
        };
      },
      () => undefined,
    ),
  },
  contract: {
    tool: 'inspect_contract',
    route: 'GET /contracts/{contractKey}',
    summary: 'The whole contract: status, recipients with their state and times, placeholders with values, history',
    answer: {
      contractKey: 'C1a2b3',
      clientKey: 'demoClient',
      name: 'Service agreement',
      status: 'Sent',
      recipients: [],
      placeholders: [],
      history: [],
    },
    request: (contractKey) => ({ params: { contractKey } }),
    handle: (r, { control, tenant }) => control.inspection.contract(r.params.contractKey!, tenant),
  },
} satisfies Partial<ControlTable>;

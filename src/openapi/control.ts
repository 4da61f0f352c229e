/**
 * The /__sandbox operations as the OpenAPI document shows them, derived from the table of control operations
 * (control-table/): the request schemas are the very zod schemas the operations validate with, and every operation
 * about one tenant's world is listed twice, at its path and under /__sandbox/platforms/{apiKey}. A test checks
 * that every control route mounted on the app is listed here. The dashboard's routes are in pages.ts.
 */
import { API_KEY_RULE } from '../core/credentials.js';
import { controlRoutes } from '../control-table/index.js';
import { lazy } from '../core/lazy.js';
import { TENANT_PREFIX } from '../core/tenant-path.js';
import type { ControlOperation } from './control-operation.js';
import { pageOperations } from './pages.js';

export type { ControlOperation } from './control-operation.js';

/** Where tenant-scoped operations live (http/control-api/index.ts mounts them there). */
const TENANT_OPERATIONS = `/__sandbox${TENANT_PREFIX}`;

/** The table's operations, each at its path, and the tenant's ones again under the tenant's prefix. */
function tableOperations(): ControlOperation[] {
  const out: ControlOperation[] = [];
  const scoped: ControlOperation[] = [];
  for (const { op, method, path, tenant } of controlRoutes()) {
    const entry: ControlOperation = {
      method: method.toLowerCase() as ControlOperation['method'],
      path: `/__sandbox${path}`,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      ...(op.body ? { body: op.body() } : {}),
      ...(op.query ? { query: op.query() } : {}),
      ...(op.example !== undefined ? { example: op.example } : {}),
      ...(op.answer !== undefined ? { response: { status: op.status ?? 200, example: op.answer } } : {}),
    };
    out.push(entry);
    if (tenant)
      scoped.push({
        ...entry,
        path: `${TENANT_OPERATIONS}${path}`,
        summary: `One tenant: ${entry.summary}`,
        description: `As ${entry.method.toUpperCase()} ${entry.path}, for the tenant (platform) with this API key only: its clock, records, emails, deliveries, requests, scenarios and faults (docs/library.md, "Parallel tests"). 400 when the key is no name (${API_KEY_RULE}), 404 when no platform has it.${entry.description ? `\n\n${entry.description}` : ''}`,
      });
  }
  return [...out, ...scoped];
}

/** Built on first read (core/lazy.ts): a start that serves no /openapi.json builds no schema. */
export const controlOperations = lazy((): ControlOperation[] => [
  {
    method: 'get',
    path: '/__sandbox',
    summary: 'Where everything is: the dashboard, the API, the control API, the docs (GET / leads to the dashboard)',
    response: {
      status: 200,
      example: {
        name: 'esign-sandbox',
        message:
          'A local sandbox of the Contract Signing Service API. The API is under /api, the sandbox control API under /__sandbox.',
        dashboard: 'http://127.0.0.1:4010/__sandbox/ui',
        api: 'http://127.0.0.1:4010/api',
        control: 'http://127.0.0.1:4010/__sandbox',
        health: 'http://127.0.0.1:4010/__sandbox/health',
        docs: 'http://127.0.0.1:4010/docs',
        openapi: 'http://127.0.0.1:4010/openapi.json',
      },
    },
  },
  ...tableOperations(),
  ...['/__sandbox', TENANT_OPERATIONS].map(
    (prefix): ControlOperation => ({
      method: 'post',
      path: `${prefix}/recipients/{recipientKey}/{verb}`,
      summary:
        'Acting as a recipient with a verb it does not have: 400 naming the verbs (view, sign, approve, lock; each listed on its own)',
    }),
  ),
  {
    method: 'get',
    path: '/__sandbox/sign/{recipientKey}',
    summary: 'Where request emails used to link: redirects (301) to the recipient page /sharing/{recipientKey}',
    html: true,
  },
  ...pageOperations,
]);

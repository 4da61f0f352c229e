/**
 * The control API on one screen (docs/control-api.md): every operation of the table, one line each, with its method,
 * path, whether it is also a tenant's (served again under `/__sandbox/platforms/{apiKey}`), and the library method it
 * serves; then the dashboard's forms. Generated from the table, and test/docs/control-screen.test.ts checks the page
 * against it, so it cannot go stale.
 */
import { TENANT_PREFIX } from '../core/tenant-path.js';
import { dashboardForms } from './forms.js';
import { controlEntries, controlTable, routeOf } from './index.js';

export function controlScreen(): string {
  const operations = controlEntries.map(({ name, method, path, tenant }) => [
    `${method} /__sandbox${path}`,
    tenant,
    name,
  ]);
  const forms = dashboardForms.map((form) => [
    `POST /__sandbox/ui${form.path ?? routeOf(controlTable[form.operation]).path}`,
    form.operation,
  ]);
  const width = Math.max(...[...operations, ...forms].map(([where]) => String(where).length)) + 2;
  return [
    `${'method and path'.padEnd(width)}${'scope'.padEnd(8)}library method (sandbox.…, client.…)`,
    ...operations.map(
      ([where, tenant, name]) => `${String(where).padEnd(width)}${(tenant ? 'tenant' : '').padEnd(8)}${name}`,
    ),
    '',
    `"tenant": also at /__sandbox${TENANT_PREFIX}/… and sandbox.tenant(apiKey).…, for that tenant only.`,
    '',
    `${'dashboard form'.padEnd(width)}the operation it runs`,
    ...forms.map(([where, name]) => `${String(where).padEnd(width)}${name}`),
  ].join('\n');
}

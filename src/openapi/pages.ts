/**
 * The dashboard's routes (/__sandbox/ui, docs/pages.md) as the OpenAPI document lists them: HTML, and its forms that
 * post, derived from their list (control-table/forms.ts).
 */
import { controlTable, routeOf } from '../control-table/index.js';
import { dashboardForms } from '../control-table/forms.js';
import type { ControlOperation } from './control-operation.js';

export const pageOperations: ControlOperation[] = [
  {
    method: 'get',
    path: '/__sandbox/ui',
    summary:
      'The dashboard (HTML): contracts, outbox, webhook deliveries, requests, scenarios, the clock (docs/pages.md)',
    html: true,
  },
  {
    method: 'get',
    path: '/__sandbox/ui/assets/{file}',
    summary: "The pages' stylesheet and scripts, served by the sandbox (no CDN)",
    html: true,
  },
  ...dashboardForms.map(
    (form): ControlOperation => ({
      method: 'post',
      path: `/__sandbox/ui${form.path ?? routeOf(controlTable[form.operation]).path}`,
      summary: `Dashboard form: ${form.summary}, then back to the dashboard (303)`,
      html: true,
    }),
  ),
];

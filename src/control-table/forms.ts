/**
 * The dashboard's forms (docs/pages.md), each the form of one control operation of the table: the dashboard posts it
 * to `/__sandbox/ui<path>` and runs that operation's `handle`, as its route and the library do (so a form obeys the
 * operation's checks and limits), and the OpenAPI document lists it (openapi/pages.ts). Adding a form is one line
 * here. The list's order is the OpenAPI document's.
 */
import { ApiError } from '../core/errors.js';
import type { ControlName } from './index.js';

export interface DashboardForm {
  /** The control operation it runs. */
  operation: ControlName;
  /** Under /__sandbox/ui (default: the operation's path). */
  path?: string;
  /** What it does, as the OpenAPI document says it: `advance the clock (form field by)`. */
  summary: string;
  /** The form fields sent as the operation's body, each `''` when missing (default: none, an empty body). */
  fields?: readonly string[];
  /** Acts for the tenant picked in the dashboard (the form's `tenant` field: its API key), else the sandbox. */
  picked?: true;
  /** The body, when it is not the fields as they came. */
  body?(form: Record<string, string>): unknown;
}

export const dashboardForms: readonly DashboardForm[] = [
  { operation: 'clock.advance', summary: 'advance the clock (form field by)', fields: ['by'], picked: true },
  { operation: 'clock.set', summary: 'set the clock (form field to)', fields: ['to'], picked: true },
  { operation: 'clock.freeze', summary: 'freeze the clock', picked: true },
  { operation: 'clock.unfreeze', summary: 'unfreeze the clock', picked: true },
  { operation: 'webhooks.redeliver', summary: 'redeliver a webhook delivery' },
  { operation: 'reset', summary: 'reset the sandbox (after its confirmation)' },
  {
    operation: 'scenarios.load',
    path: '/scenarios/load',
    summary: 'load a bundled scenario (name) or pasted YAML (yaml)',
    body(form) {
      if (form.name) return { name: form.name };
      const yaml = form.yaml ?? '';
      if (yaml.trim() === '') throw ApiError.badRequest('Paste a scenario (YAML) first');
      return { yaml };
    },
  },
];

/** The body a form sends to its operation. */
export function formBody(form: DashboardForm, fields: Record<string, string>): unknown {
  if (form.body) return form.body(fields);
  return Object.fromEntries((form.fields ?? []).map((name) => [name, fields[name] ?? '']));
}

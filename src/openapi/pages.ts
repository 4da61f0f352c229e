/** The dashboard's routes (/__sandbox/ui, docs/pages.md) as the OpenAPI document lists them: HTML, forms that post. */
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
  {
    method: 'post',
    path: '/__sandbox/ui/clock/advance',
    summary: 'Dashboard form: advance the clock (form field by), then back to the dashboard (303)',
    html: true,
  },
  {
    method: 'post',
    path: '/__sandbox/ui/clock/set',
    summary: 'Dashboard form: set the clock (form field to), then back to the dashboard (303)',
    html: true,
  },
  {
    method: 'post',
    path: '/__sandbox/ui/clock/freeze',
    summary: 'Dashboard form: freeze the clock, then back to the dashboard (303)',
    html: true,
  },
  {
    method: 'post',
    path: '/__sandbox/ui/clock/unfreeze',
    summary: 'Dashboard form: unfreeze the clock, then back to the dashboard (303)',
    html: true,
  },
  {
    method: 'post',
    path: '/__sandbox/ui/webhook-deliveries/{id}/redeliver',
    summary: 'Dashboard form: redeliver a webhook delivery, then back to the dashboard (303)',
    html: true,
  },
  {
    method: 'post',
    path: '/__sandbox/ui/reset',
    summary: 'Dashboard form: reset the sandbox (after its confirmation), then back to the dashboard (303)',
    html: true,
  },
  {
    method: 'post',
    path: '/__sandbox/ui/scenarios/load',
    summary: 'Dashboard form: load a bundled scenario (name) or pasted YAML (yaml), then back to the dashboard (303)',
    html: true,
  },
];

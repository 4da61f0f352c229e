/**
 * The control API's table (operation.ts says how an entry reads): every operation once, by the name of the library
 * method it serves. The routes, the OpenAPI document, the control client, the library and the dashboard's forms
 * are derived from it; `deriveControl` builds the library's nested object (`clock.advance`, `webhooks.faults.set`)
 * over any way of calling an operation: in process, or over HTTP.
 */
import type { SandboxControl, SandboxTenant } from '../control/sandbox-control.js';
import { capturedOps } from './captured.js';
import { clockOps } from './clock.js';
import { faultOps } from './faults.js';
import type { ControlOp, ControlTable } from './operation.js';
import { recipientOps } from './recipients.js';
import { scenarioOps } from './scenarios.js';
import { stateOps } from './state.js';
import { readinessOps } from './readiness.js';

export type { ControlOp, ControlRequest, ControlTable, ControlWorld } from './operation.js';
export { TextAnswer, fillPath } from './operation.js';

export const controlTable: ControlTable = {
  ...stateOps,
  ...clockOps,
  ...recipientOps,
  ...capturedOps,
  ...faultOps,
  ...scenarioOps,
  ...readinessOps,
};

export type ControlName = keyof ControlTable;

/** Every entry, in the table's order, with its name. */
export const controlEntries = Object.entries(controlTable) as [ControlName, ControlOp<unknown[]>][];

/**
 * The routes: one per path and method (`scenarios.load` and `scenarios.loadFile` share POST /scenarios; the first
 * entry of a path and method serves it).
 */
export function controlRoutes(): [ControlName, ControlOp<unknown[]>][] {
  const seen = new Set<string>();
  return controlEntries.filter(([, op]) => {
    const key = `${op.method} ${op.path}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Calls one operation with a library call's arguments, and answers what the library method answers. */
export type Invoke = (name: ControlName, args: unknown[]) => Promise<unknown>;

/** The library's nested object over `invoke`: every method of the table (or of the tenant's part of it). */
export function deriveControl(invoke: Invoke): SandboxControl;
export function deriveControl(invoke: Invoke, tenant: string): SandboxTenant;
export function deriveControl(invoke: Invoke, tenant?: string): SandboxControl | SandboxTenant {
  const root: Record<string, unknown> = tenant !== undefined ? { apiKey: tenant } : {};
  for (const [name, op] of controlEntries) {
    if (tenant !== undefined && !op.tenant) continue;
    const parts = name.split('.');
    let at = root;
    for (const part of parts.slice(0, -1)) {
      at[part] ??= {};
      at = at[part] as Record<string, unknown>;
    }
    at[parts.at(-1)!] = (...args: unknown[]) => invoke(name, args);
  }
  const clock = root.clock as SandboxControl['clock'];
  clock.now = async () => new Date((await clock.state()).now);
  return root as unknown as SandboxControl;
}

/**
 * The control API's table (operation.ts says how an entry reads): every operation once, by the name of the library
 * method it serves. The routes, the OpenAPI document, the control client, the library, the MCP tools and the
 * generated lists of docs/control-api.md and docs/mcp.md are derived from it, and the dashboard's forms run its
 * entries; `deriveControl` builds the library's nested object (`clock.advance`, `webhooks.faults.set`) over any way
 * of calling an operation: in process, or over HTTP.
 */
import { type SandboxControl, type SandboxTenant, TENANT_PARTS } from '../control/sandbox-control.js';
import { capturedOps } from './captured.js';
import { clockOps } from './clock.js';
import { faultOps } from './faults.js';
import { type ControlMethod, type ControlOp, type ControlRequest, type ControlTable, routeOf } from './operation.js';
import { recipientOps } from './recipients.js';
import { scenarioOps } from './scenarios.js';
import { stateOps } from './state.js';
import { readinessOps } from './readiness.js';

export type { ControlMethod, ControlOp, ControlRequest, ControlTable, ControlWorld } from './operation.js';
export { TextAnswer, fillPath, reshaped, routeOf } from './operation.js';

const entries = {
  ...stateOps,
  ...clockOps,
  ...recipientOps,
  ...capturedOps,
  ...faultOps,
  ...scenarioOps,
  ...readinessOps,
};

export type ControlName = keyof ControlTable;

/** Entries of no library method: each would have to be `never`, so any entry fails the check. */
export type OnlyMethods<Entries> = Record<Exclude<keyof Entries, ControlName>, never>;

/**
 * One entry per library method, checked by the compiler both ways: a method of `SandboxControl` without an entry is
 * missing from `ControlTable`, and an entry of no method is refused here (`OnlyMethods`), as it is in its part
 * (`satisfies Partial<ControlTable>`).
 */
export const controlTable: ControlTable = entries satisfies OnlyMethods<typeof entries>;

/**
 * An entry as the routes, the OpenAPI document and the screen read it: its route read apart, and `tenant` when its
 * part is a tenant's.
 */
export interface ControlEntry {
  name: ControlName;
  op: ControlOp<unknown[]>;
  method: ControlMethod;
  /** Under /__sandbox, OpenAPI form: `/recipients/{recipientKey}/sign`. */
  path: string;
  /** Also served under `/__sandbox/platforms/{apiKey}/…` and from `sandbox.tenant(apiKey)` (TENANT_PARTS). */
  tenant: boolean;
}

/** Whether the operation is about one tenant's world: its part (`clock` of `clock.advance`) is in TENANT_PARTS. */
export function isTenantOperation(name: ControlName): boolean {
  return (TENANT_PARTS as readonly string[]).includes(name.split('.')[0]!);
}

/** Every entry, in the table's order. */
export const controlEntries: readonly ControlEntry[] = Object.entries(controlTable).map(([name, op]) => ({
  name: name as ControlName,
  op: op as ControlOp<unknown[]>,
  ...routeOf(op),
  tenant: isTenantOperation(name as ControlName),
}));

/**
 * The routes: one per path and method (`scenarios.load` and `scenarios.loadFile` share POST /scenarios; the first
 * entry of a path and method serves it).
 */
export function controlRoutes(): ControlEntry[] {
  const seen = new Set<string>();
  return controlEntries.filter(({ op }) => {
    if (seen.has(op.route)) return false;
    seen.add(op.route);
    return true;
  });
}

/**
 * One library or client call of an operation: what it sends (`op.request`; nothing for a call without arguments),
 * the answer's body from `send` (the operation in process, or its route over HTTP), and what the call answers
 * (`op.result`, else the body itself).
 */
export async function callOperation(
  op: ControlOp<unknown[]>,
  args: unknown[],
  send: (request: Partial<ControlRequest>) => Promise<unknown>,
): Promise<unknown> {
  const answer = await send(op.request ? await op.request(...args) : {});
  return op.result ? op.result(answer as never) : answer;
}

/** Calls one operation with a library call's arguments, and answers what the library method answers. */
export type Invoke = (name: ControlName, args: unknown[]) => Promise<unknown>;

/** The library's nested object over `invoke`: every method of the table (or of the tenant's part of it). */
export function deriveControl(invoke: Invoke): SandboxControl;
export function deriveControl(invoke: Invoke, tenant: string): SandboxTenant;
export function deriveControl(invoke: Invoke, tenant?: string): SandboxControl | SandboxTenant {
  const root: Record<string, unknown> = tenant !== undefined ? { apiKey: tenant } : {};
  for (const { name, tenant: scoped } of controlEntries) {
    if (tenant !== undefined && !scoped) continue;
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

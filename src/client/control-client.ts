/**
 * A client for the control API of a sandbox started elsewhere (another process, a CI service container):
 * the same methods as `startSandbox()` returns, each one HTTP call to /__sandbox.
 *
 *   import { createControlClient } from 'esign-sandbox';
 *   const sandbox = createControlClient(process.env.SANDBOX_URL ?? 'http://127.0.0.1:4010');
 *   await sandbox.clock.advance('31m');
 *   const failures = await sandbox.requests({ status: '4xx' });
 */
import type { Health, SandboxControl, SandboxTenant } from '../control/sandbox-control.js';
import { SandboxControlError } from '../control/sandbox-control.js';
import {
  type ControlName,
  type ControlOp,
  type ControlRequest,
  callOperation,
  controlTable,
  deriveControl,
  fillPath,
  routeOf,
} from '../control-table/index.js';
import { tenantPrefix } from '../core/tenant-path.js';
import { monotonicNow } from '../core/wall-time.js';

export interface ControlClientOptions {
  /** A fetch implementation (default: the global one), e.g. one that trusts a TLS sandbox's certificate. */
  fetch?: typeof fetch;
  /** Extra headers on every call. */
  headers?: Record<string, string>;
}

export interface ControlClient extends SandboxControl {
  /** The sandbox's base URL. */
  readonly url: string;
  /** One tenant's world (its own clock, records, emails…): `/__sandbox/platforms/{apiKey}/…` (docs/library.md). */
  tenant(apiKey: string): SandboxTenant;
  /** Resolves once GET /__sandbox/health answers 200, polling until `timeoutMs` (default 10 s) runs out. */
  waitUntilReady(options?: { timeoutMs?: number; intervalMs?: number }): Promise<Health>;
  /**
   * One control operation's request as it is, over HTTP (scoped to a tenant with `apiKey`): its answer's body, or
   * a SandboxControlError with the API's message. What `esign-sandbox mcp --url` sends its tool calls with.
   */
  send(op: ControlOp<unknown[]>, request: Partial<ControlRequest>, apiKey?: string): Promise<unknown>;
}

export function createControlClient(url: string, options: ControlClientOptions = {}): ControlClient {
  const base = url.replace(/\/+$/, '');
  const call = controlCall(base, options);
  // One operation's request over HTTP, at its route under `prefix` (a tenant's, or none).
  const send = (op: ControlOp<unknown[]>, request: Partial<ControlRequest>, prefix: string) => {
    const { method, path } = routeOf(op);
    const query = request.query as Record<string, unknown> | undefined;
    return call(method, `${prefix}${fillPath(path, request.params)}`, request.body, query);
  };

  // Each method is one operation of the control table, over HTTP: its request, its route, its result.
  const invoke = (prefix: string) => (name: ControlName, args: unknown[]) => {
    const op = controlTable[name] as ControlOp<unknown[]>;
    return callOperation(op, args, (request) => send(op, request, prefix));
  };
  const control = deriveControl(invoke(''));

  return {
    url: base,
    send: (op, request, apiKey) => send(op, request, apiKey === undefined ? '' : tenantPrefix(apiKey)),
    ...control,
    tenant: (apiKey: string) => deriveControl(invoke(tenantPrefix(apiKey)), apiKey),
    waitUntilReady: ({ timeoutMs = 10_000, intervalMs = 100 } = {}) =>
      waitUntilReady(call, base, timeoutMs, intervalMs),
  };
}

type Call = <T = unknown>(method: string, path: string, body?: unknown, query?: Record<string, unknown>) => Promise<T>;

/**
 * One request to the control API over HTTP: the answer's JSON, or a SandboxControlError with the sandbox's own
 * message (status 0 when nothing answered).
 */
function controlCall(base: string, options: ControlClientOptions): Call {
  const doFetch = options.fetch ?? fetch;
  return async function call<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    query?: Record<string, unknown>,
  ): Promise<T> {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) search.set(key, String(value));
    const qs = search.size ? `?${search}` : '';
    let res: Response;
    let text: string;
    try {
      res = await doFetch(`${base}/__sandbox${path}${qs}`, {
        method,
        headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      text = await res.text();
    } catch (error) {
      // No answer at all (refused, reset, DNS): status 0, and a message that says what to check.
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const why = cause?.code ?? cause?.message ?? (error as Error).message;
      throw new SandboxControlError(
        0,
        `Cannot reach the sandbox at ${base} (${method} /__sandbox${path}: ${why}); is it running? Start one with npx esign-sandbox`,
      );
    }
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: reported below as it is */
    }
    if (!res.ok) {
      const error = parsed as { message?: string; errors?: { path: string; message: string }[] } | undefined;
      throw new SandboxControlError(
        res.status,
        error?.message ?? `${method} ${path} answered ${res.status}: ${text.slice(0, 200)}`,
        error?.errors,
      );
    }
    return parsed as T;
  };
}

/** Asks for /health until the sandbox answers, or `timeoutMs` have passed. */
async function waitUntilReady(call: Call, base: string, timeoutMs: number, intervalMs: number): Promise<Health> {
  // Wall time on purpose: this waits for a process to come up, it is not sandbox time.
  const deadline = monotonicNow() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      return await call<Health>('GET', '/health');
    } catch (error) {
      last = error;
    }
    if (monotonicNow() >= deadline)
      throw new SandboxControlError(
        0,
        `The sandbox at ${base} was not ready after ${timeoutMs} ms: ${(last as Error).message}`,
      );
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

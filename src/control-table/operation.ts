/**
 * How a control operation is declared (the /__sandbox API, docs/library.md): once, in a table like /api's
 * (resources/action.ts), from which the routes (http/control-api/), the OpenAPI document (openapi/control.ts),
 * `createControlClient` (client/control-client.ts), the library (`startSandbox()`, index.ts), the MCP tools
 * (mcp/tools.ts) and the generated lists of docs/control-api.md and docs/mcp.md are derived; the dashboard's forms
 * (forms.ts, one line a form) run its entries. Each entry says where it lives on HTTP, its MCP tool, what a library
 * call sends, what the operation does with it, and what the library call answers. An operation of a part about one
 * tenant's world (`TENANT_PARTS`, control/sandbox-control.ts) is also served under `/__sandbox/platforms/{apiKey}/…`,
 * with the same path and body, and from `sandbox.tenant(apiKey)`.
 *
 * The table's type comes from the library's interface, `SandboxControl` (control/sandbox-control.ts), not the other
 * way round: that interface is the library's documented public contract, the method names, parameter names and TSDoc
 * users read in their editor and in the package's .d.ts. A type computed from the table would lose that TSDoc
 * (TypeScript keeps a property's doc only through a mapped type over that same object's keys, and the table's dotted
 * names are folded back into `clock.advance`), would put the table's internals (handlers, zod schemas, `ControlWorld`)
 * into the public declarations, and would make each entry write out the argument and answer types it now gets from
 * its method. The compiler ties each entry to its method: a method without an entry, or an entry of no method, fails
 * the type check (`ControlTable` below; control-table/index.ts).
 */
import type { z } from 'zod';
import type { SandboxControl } from '../control/sandbox-control.js';
import type { Control, Tenant } from '../control/control.js';
import type { ScenarioEngine } from '../scenarios/engine.js';

/** A control request as an operation reads it: path parameters, query parameters, and the body (JSON, or text). */
export interface ControlRequest {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
}

/** What an operation works on: the control operations, the scenario engine, and the tenant it is scoped to. */
export interface ControlWorld {
  control: Control;
  scenarios: ScenarioEngine;
  /** The tenant of a scoped call (`/__sandbox/platforms/{apiKey}/…`, `sandbox.tenant(apiKey)`); none: the sandbox. */
  tenant: Tenant | undefined;
}

/** How the route reads the body: JSON (`{}` when empty), a scenario (JSON or raw YAML), a snapshot (larger cap). */
export type BodyReader = 'json' | 'scenario' | 'snapshot';

/** A control operation's method. */
export type ControlMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Where an operation lives on HTTP, as the docs write it: `POST /recipients/{recipientKey}/sign` (under /__sandbox). */
export type ControlRoute = `${ControlMethod} /${string}`;

/** What every entry declares, whatever it answers. */
interface ControlOpBase<Args extends unknown[], Result> {
  /** Its method and path under /__sandbox, the path in OpenAPI form (`routeOf` reads them apart). */
  route: ControlRoute;
  /**
   * Its MCP tool (docs/mcp.md), snake_case: `advance_clock`. Entries of different routes that share a name are one
   * tool taking the last segment of their paths as `verb` (the recipient acts: `act_as_recipient`); an entry that
   * shares another's route (`scenarios.loadFile`, `scenarios.load`'s) names the same tool.
   */
  tool: string;
  summary: string;
  description?: string;
  /** The body's schema and the query's, as the operation validates them (shown in the OpenAPI document). */
  body?: () => z.ZodType;
  query?: () => z.ZodObject;
  /** How the route reads the body (default: JSON for POST and PUT, none otherwise). */
  read?: BodyReader;
  /** A request body that works, and what a success looks like (status 200 unless said). */
  example?: unknown;
  status?: 200 | 201;
  answer?: unknown;
  /** In process only: the call made otherwise (a scenario file read where the library runs, with its path kept). */
  local?(world: ControlWorld, ...args: Args): Promise<Result>;
}

type Sends<Args extends unknown[]> = (...args: Args) => Partial<ControlRequest> | Promise<Partial<ControlRequest>>;

/**
 * `request`: what a library or client call with these arguments sends. A call without arguments sends nothing, so
 * its entry says no `request`; one with arguments must say where they go.
 */
type Requesting<Args extends unknown[]> = Args extends []
  ? { request?: undefined }
  : unknown[] extends Args
    ? { request?: Sends<Args> }
    : { request: Sends<Args> };

declare const checked: unique symbol;

/** A `result` made by `reshaped`, so its argument is the very answer `handle` gives. */
export type ResultOf<Result> = ((answer: never) => Result) & { readonly [checked]: true };

/**
 * The operation itself, `handle`: its answer's body, which is what the library or client call answers; or, where
 * the call answers a part of it (`{emails: [...]}` → the list), `handle` and `result` made together by `reshaped`.
 * Refusals are ApiErrors.
 */
type Answering<Result> =
  | { handle(request: ControlRequest, world: ControlWorld): Result | Promise<Result>; result?: undefined }
  | { handle(request: ControlRequest, world: ControlWorld): unknown; result: ResultOf<Result> };

export type ControlOp<Args extends unknown[] = never[], Result = unknown> = ControlOpBase<Args, Result> &
  Requesting<Args> &
  Answering<Result>;

/**
 * `handle` and `result` of an entry whose library call answers a part of its HTTP answer: `result` reads the answer
 * `handle` gives, checked by the compiler.
 */
export function reshaped<Answer, Result>(
  handle: (request: ControlRequest, world: ControlWorld) => Answer | Promise<Answer>,
  result: (answer: Answer) => Result,
): { handle: typeof handle; result: ResultOf<Result> } {
  return { handle, result: result as unknown as ResultOf<Result> };
}

/**
 * `handle` and `result` of an entry whose HTTP answer is one value under a name (`{"emails": [...]}`,
 * `{"cleared": 3}`) and whose library call answers the value itself.
 */
export function wrappedIn<Key extends string, Value>(
  key: Key,
  handle: (request: ControlRequest, world: ControlWorld) => Value,
) {
  return reshaped(
    (request, world) => ({ [key]: handle(request, world) }) as Record<Key, Value>,
    (answer) => answer[key],
  );
}

/**
 * An answer that is not JSON (the readiness report as JUnit XML or Markdown): the route sends the text with its
 * content type. Only HTTP asks for one; library calls answer JSON.
 */
export class TextAnswer {
  constructor(
    readonly text: string,
    readonly contentType: string,
  ) {}
}

/** An entry's route read apart: `POST` and `/recipients/{recipientKey}/sign`. */
export function routeOf(op: { route: ControlRoute }): { method: ControlMethod; path: string } {
  const space = op.route.indexOf(' ');
  return { method: op.route.slice(0, space) as ControlMethod, path: op.route.slice(space + 1) };
}

/** `/recipients/{recipientKey}` with `{recipientKey: 'R1'}`: path parameters filled in, encoded. */
export function fillPath(path: string, params: Record<string, string> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}

// biome-ignore lint/suspicious/noExplicitAny: any function, to find the methods of the interface
type AnyFn = (...args: any[]) => Promise<unknown>;
type Flatten<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends AnyFn ? { [Q in `${P}${K}`]: T[K] } : Flatten<T[K], `${P}${K}.`>;
}[keyof T & string];
type Intersect<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/**
 * Every method of the library's control interface by its dotted name (`clock.advance`, `webhooks.faults.set`),
 * less `clock.now`, which reads `clock.state` (index.ts `deriveControl`).
 */
export type ControlMethods = Omit<Intersect<Flatten<SandboxControl>>, 'clock.now'>;
type Method<K extends keyof ControlMethods> = ControlMethods[K] extends AnyFn ? ControlMethods[K] : never;

/** The table: one operation per library method, its arguments and answer checked against the method's. */
export type ControlTable = {
  [K in keyof ControlMethods]: ControlOp<Parameters<Method<K>>, Awaited<ReturnType<Method<K>>>>;
};

/**
 * Mounts ResourceSpecs on a Hono app. Each request walks one path: method → body → operation → credentials
 * → validation → client → handler. Every refusal on the way is an ApiError, rendered by app.ts.
 */
import type { Context, Hono } from 'hono';
import { apiKeyOf, authenticate, requirePlatformPrincipal } from './auth.js';
import { clientFor } from '../domain/clients.js';
import type { OpContext, Services } from '../domain/context.js';
import { ApiError } from '../core/errors.js';
import {
  type PlainResource,
  RawJson,
  type Reply,
  type ResourceSpec,
  matchOperation,
  wireName,
} from '../resources/action.js';
import { describe, readJsonObject } from './body.js';
import { parseWith } from '../core/validation.js';
import { rememberWarnings } from '../core/warnings.js';

export interface RouterOptions {
  maxBodyBytes: number;
  apiKeyHeader: string;
}

export function mountResource(app: Hono, resource: ResourceSpec, services: Services, options: RouterOptions): void {
  const wireNames = actionsByWireName(resource);
  app.all(resource.path, async (c) => {
    if (c.req.method !== 'POST') {
      throw new ApiError(
        405,
        `Method ${c.req.method} is not allowed on ${resource.path}; every operation is a POST`,
        undefined,
        {
          Allow: 'POST',
        },
      );
    }
    const body = await readJsonObject(c.req.raw, options.maxBodyBytes);
    const name = selectAction(resource, body, wireNames);
    const action = resource.actions[name]!;
    // Every property present from the start: one object shape for every request.
    const ctx: OpContext = {
      store: services.store,
      clock: services.clock,
      bus: services.bus,
      ids: services.ids,
      cause: 'api',
      principal: undefined,
      client: undefined,
    };
    if (action.scope !== 'public') {
      const headers = c.req.raw.headers;
      const authorization = headers.get('authorization');
      const apiKey = authorization === null ? apiKeyOf(headers, options.apiKeyHeader) : undefined;
      ctx.principal = authenticate(
        services,
        { authorization: authorization ?? undefined, apiKey: apiKey ?? undefined },
        options.apiKeyHeader,
      );
    }
    const input = parseWith(action.schema, body);
    if (action.scope === 'platform' && ctx.principal)
      requirePlatformPrincipal(ctx.principal, describeAction(resource, name));
    if (action.scope === 'client' && ctx.principal) {
      const clientKey = action.clientKey
        ? action.clientKey.of(input)
        : (input as { data?: { clientKey?: string } }).data?.clientKey;
      ctx.client = clientFor(ctx, ctx.principal, clientKey, action.clientKey?.path);
    }
    // Most handlers answer synchronously: awaiting a plain value would still cost a promise and a turn.
    const answer = action.handle(input, ctx, { header: (name) => c.req.header(name), url: c.req.url });
    return send(c, answer instanceof Promise ? await answer : answer);
  });
}

/**
 * Mounts a plain endpoint resource (no `{data: {action}}` envelope): one spec per method, input from the query string
 * and the flat JSON body; the same faults middleware, credentials, errors and journal as mountResource.
 */
export function mountEndpoints(app: Hono, resource: PlainResource, services: Services, options: RouterOptions): void {
  const methods = resource.endpoints.map((e) => e.method);
  app.all(resource.path, async (c) => {
    const endpoint = resource.endpoints.find((e) => e.method === c.req.method);
    if (!endpoint) {
      throw new ApiError(
        405,
        `Method ${c.req.method} is not allowed on ${resource.path}; use ${methods.join(', ')}`,
        undefined,
        { Allow: methods.join(', ') },
      );
    }
    const query = Object.fromEntries(new URL(c.req.url).searchParams);
    const body =
      endpoint.method === 'GET' ? {} : await readJsonObject(c.req.raw, options.maxBodyBytes, { emptyAs: {} });
    const ctx: OpContext = {
      store: services.store,
      clock: services.clock,
      bus: services.bus,
      ids: services.ids,
      cause: 'api',
      principal: undefined,
      client: undefined,
    };
    if (endpoint.scope !== 'public') {
      const headers = c.req.raw.headers;
      const authorization = headers.get('authorization');
      const apiKey = authorization === null ? apiKeyOf(headers, options.apiKeyHeader) : undefined;
      ctx.principal = authenticate(
        services,
        { authorization: authorization ?? undefined, apiKey: apiKey ?? undefined },
        options.apiKeyHeader,
      );
    }
    const input = parseWith(endpoint.schema, { ...query, ...body });
    if (endpoint.scope === 'client' && ctx.principal)
      ctx.client = clientFor(ctx, ctx.principal, (input as { clientKey?: string }).clientKey, 'clientKey');
    const answer = endpoint.handle(input, ctx, { header: (name) => c.req.header(name), url: c.req.url });
    return send(c, answer instanceof Promise ? await answer : answer);
  });
}

function send(c: Context, result: Reply): Response {
  if (result.warnings?.length) warn(c, result.warnings);
  if (result.body instanceof RawJson)
    return c.body(result.body.bytes, result.status as 200, { 'Content-Type': 'application/json' });
  return c.json(result.body, result.status as 200);
}

/**
 * Compatibility warnings (decisions §11) as `X-Sandbox-Warning` headers, one per warning, and on the request for
 * the request journal's entry.
 */
function warn(c: Context, warnings: readonly string[]): void {
  for (const w of warnings) c.header(SANDBOX_WARNING, w, { append: true });
  rememberWarnings(c.req.raw, warnings);
}

export const SANDBOX_WARNING = 'X-Sandbox-Warning';

function describeAction(resource: ResourceSpec, name: string): string {
  return `${wireName(resource, name)} on ${resource.path}`;
}

function selectAction(resource: ResourceSpec, body: Record<string, unknown>, wireNames: Map<string, string>): string {
  const name = resource.select ? resource.select(body) : selectByData(resource, body, wireNames);
  if (!Object.hasOwn(resource.actions, name))
    throw new Error(`resource ${resource.path} selected unknown action ${name}`);
  return name;
}

function selectByData(resource: ResourceSpec, body: Record<string, unknown>, wireNames: Map<string, string>): string {
  const data = body.data;
  if (data === undefined || data === null || typeof data !== 'object' || Array.isArray(data)) {
    const found = data === undefined ? 'it is missing' : `got ${describe(data)}`;
    throw ApiError.badRequest(`Request body must wrap its fields in an object named "data" (${found})`, [
      { path: 'data', message: data === undefined ? 'Required' : 'Must be an object' },
    ]);
  }
  const field = resource.selector;
  const value = (data as Record<string, unknown>)[field];
  const name = typeof value === 'string' ? wireNames.get(value) : undefined;
  return name ?? matchOperation(resource, value, `data.${field}`);
}

/** Action names by wire name (the first action of each): built when a resource is mounted, read per request. */
function actionsByWireName(resource: ResourceSpec): Map<string, string> {
  const names = new Map<string, string>();
  for (const name of Object.keys(resource.actions))
    if (!names.has(wireName(resource, name))) names.set(wireName(resource, name), name);
  return names;
}

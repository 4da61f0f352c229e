/**
 * Mounts ResourceSpecs on a Hono app. Each request walks one path: method → body → operation → credentials
 * → validation → client → handler. Every refusal on the way is an ApiError, rendered by app.ts.
 */
import type { Hono } from 'hono';
import { authenticate, requirePlatformPrincipal, resolveClient } from '../auth.js';
import type { OpContext, Services } from '../context.js';
import { ApiError, quote } from '../errors.js';
import { RawJson, type ResourceSpec } from './action.js';
import { describe, readJsonObject } from './body.js';
import { parseWith } from './validation.js';

export interface RouterOptions {
  maxBodyBytes: number;
  apiKeyHeader: string;
}

export function mountResource(app: Hono, resource: ResourceSpec, services: Services, options: RouterOptions): void {
  resource.setup?.(services);
  const wireNames = actionsByWireName(resource);
  app.all(resource.path, async (c) => {
    if (c.req.method !== 'POST') {
      throw new ApiError(405, `Method ${c.req.method} is not allowed on ${resource.path}; every operation is a POST`, undefined, {
        Allow: 'POST',
      });
    }
    const body = await readJsonObject(c.req.raw, options.maxBodyBytes);
    const name = selectAction(resource, body, wireNames);
    const action = resource.actions[name]!;
    // Every property present from the start: one object shape for every request.
    const ctx: OpContext = { store: services.store, clock: services.clock, bus: services.bus, ids: services.ids, cause: 'api', principal: undefined, client: undefined };
    if (action.scope !== 'public') {
      const headers = c.req.raw.headers;
      const authorization = headers.get('authorization');
      const apiKey = authorization === null ? headers.get(options.apiKeyHeader) : null;
      ctx.principal = authenticate(services, { authorization: authorization ?? undefined, apiKey: apiKey ?? undefined }, options.apiKeyHeader);
    }
    const input = parseWith(action.schema, body);
    if (action.scope === 'platform' && ctx.principal) requirePlatformPrincipal(ctx.principal, describeAction(resource, name));
    if (action.scope === 'client' && ctx.principal) {
      const clientKey = action.clientKey
        ? action.clientKey.of(input)
        : ((input as { data?: { clientKey?: string } }).data?.clientKey);
      ctx.client = resolveClient(ctx, ctx.principal, clientKey, action.clientKey?.path);
    }
    // Most handlers answer synchronously: awaiting a plain value would still cost a promise and a turn.
    const answer = action.handle(input, ctx);
    const result = answer instanceof Promise ? await answer : answer;
    if (result.body instanceof RawJson) return c.body(result.body.bytes, result.status as 200, { 'Content-Type': 'application/json' });
    return c.json(result.body, result.status as 200);
  });
}

function describeAction(resource: ResourceSpec, name: string): string {
  return `${wireName(resource, name)} on ${resource.path}`;
}

function wireName(resource: ResourceSpec, name: string): string {
  return resource.actions[name]?.wireName ?? name;
}

function selectAction(resource: ResourceSpec, body: Record<string, unknown>, wireNames: Map<string, string>): string {
  const name = resource.select ? resource.select(body) : selectByData(resource, body, wireNames);
  if (!Object.hasOwn(resource.actions, name)) throw new Error(`resource ${resource.path} selected unknown action ${name}`);
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
  for (const name of Object.keys(resource.actions)) if (!names.has(wireName(resource, name))) names.set(wireName(resource, name), name);
  return names;
}

/** Finds the action whose wire name is `value`, or answers 400 naming the valid ones. */
export function matchOperation(resource: ResourceSpec, value: unknown, path: string): string {
  const names = Object.keys(resource.actions);
  const valid = [...new Set(names.map((n) => wireName(resource, n)))];
  const field = path.split('.').pop()!;
  const label = field === 'type' ? 'type' : 'action';
  if (typeof value !== 'string' || value === '') {
    throw ApiError.badRequest(`${path} is required; valid ${label}s for ${resource.path}: ${valid.join(', ')}`, [
      { path, message: value === undefined ? 'Required' : `Must be one of: ${valid.join(', ')}` },
    ]);
  }
  const name = names.find((n) => wireName(resource, n) === value);
  if (!name) {
    throw ApiError.badRequest(`Unknown ${label} ${quote(value)} for ${resource.path}; valid ${label}s: ${valid.join(', ')}`, [
      { path, message: `Must be one of: ${valid.join(', ')}` },
    ]);
  }
  return name;
}

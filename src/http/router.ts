/**
 * Mounts ResourceSpecs on a Hono app. Each request walks one path: method → body → operation → credentials
 * → validation → client → handler. Every refusal on the way is an ApiError, rendered by app.ts.
 */
import type { Hono } from 'hono';
import { authenticate, requirePlatformPrincipal, resolveClient } from '../auth.js';
import type { OpContext, Services } from '../context.js';
import { ApiError, quote } from '../errors.js';
import { type ActionSpec, RawJson, type ResourceSpec } from './action.js';
import { describe, readJsonObject } from './body.js';
import { parseWith } from './validation.js';

export interface RouterOptions {
  maxBodyBytes: number;
  apiKeyHeader: string;
}

export function mountResource(app: Hono, resource: ResourceSpec, services: Services, options: RouterOptions): void {
  resource.setup?.(services);
  app.all(resource.path, async (c) => {
    if (c.req.method !== 'POST') {
      throw new ApiError(405, `Method ${c.req.method} is not allowed on ${resource.path}; every operation is a POST`, undefined, {
        Allow: 'POST',
      });
    }
    const body = await readJsonObject(c.req.raw, options.maxBodyBytes);
    const [name, action] = selectAction(resource, body);
    const ctx: OpContext = { ...services, cause: 'api' };
    if (action.scope !== 'public') {
      ctx.principal = authenticate(
        services,
        { authorization: c.req.header('authorization'), apiKey: c.req.header(options.apiKeyHeader) },
        options.apiKeyHeader,
      );
    }
    const input = parseWith(action.schema, body);
    if (action.scope === 'platform' && ctx.principal) requirePlatformPrincipal(ctx.principal, describeAction(resource, name));
    if (action.scope === 'client' && ctx.principal) {
      const clientKey = action.clientKey
        ? action.clientKey.of(input)
        : ((input as { data?: { clientKey?: string } }).data?.clientKey);
      ctx.client = resolveClient(ctx, ctx.principal, clientKey, action.clientKey?.path);
    }
    const result = await action.handle(input, ctx);
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

function selectAction(resource: ResourceSpec, body: Record<string, unknown>): [string, ActionSpec] {
  const name = resource.select ? resource.select(body) : selectByData(resource, body);
  const action = resource.actions[name];
  if (!action) throw new Error(`resource ${resource.path} selected unknown action ${name}`);
  return [name, action];
}

function selectByData(resource: ResourceSpec, body: Record<string, unknown>): string {
  const data = body.data;
  if (data === undefined || data === null || typeof data !== 'object' || Array.isArray(data)) {
    const found = data === undefined ? 'it is missing' : `got ${describe(data)}`;
    throw ApiError.badRequest(`Request body must wrap its fields in an object named "data" (${found})`, [
      { path: 'data', message: data === undefined ? 'Required' : 'Must be an object' },
    ]);
  }
  const field = resource.selector;
  const value = (data as Record<string, unknown>)[field];
  return matchOperation(resource, value, `data.${field}`);
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

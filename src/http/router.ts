/**
 * Mounts ResourceSpecs on a Hono app: the `route` stage of an /api request (http/stages.ts). Each request walks one
 * path of named steps: body (`readJsonObject`) → operation (`selectAction`) → caller (`identify`) → input
 * (`parseWith` the action's schema) → client (`admit`) → context (`operationContext`, built once, never changed) →
 * handler → answer (`send`). Every refusal on the way is an ApiError, rendered by app.ts.
 */
import type { Context, Hono } from 'hono';
import { admit, identify, operationContext } from './auth.js';
import { ApiError } from '../core/errors.js';
import { operationValue } from '../core/operation.js';
import {
  type PlainResource,
  type RequestInfo,
  type ResourceSpec,
  matchOperation,
  wireName,
} from '../resources/action.js';
import { describe, readJsonObject } from './body.js';
import { parseWith } from '../core/validation.js';
import { checkTextLimits } from '../core/text-limits.js';
import type { RequestEnv } from '../domain/request-facts.js';
import { publicBase } from './public-url.js';
import { type DocumentRouting, documentParameters, documentRequest, parseParameters } from './documents.js';
import { honoPath } from '../core/route-path.js';
import { send } from './reply.js';

export interface RouterOptions {
  maxBodyBytes: number;
  /** `--public-url`, when given (http/public-url.ts). */
  publicUrl?: string | undefined;
  /** The document endpoints' store, renderer and upload limit: given by an app that mounts them. */
  documents?: DocumentRouting | undefined;
}

/**
 * An envelope resource: one POST path, the operation named in the body. Other methods fall through to the one 405
 * answer (http/app.ts).
 */
export function mountResource(app: Hono<RequestEnv>, resource: ResourceSpec, options: RouterOptions): void {
  const wireNames = actionsByWireName(resource);
  app.post(resource.path, async (c) => {
    const body = await readJsonObject(c, options.maxBodyBytes);
    const name = selectAction(resource, body, wireNames);
    const action = resource.actions[name]!;
    const principal = identify(c, action.scope);
    checkTextLimits(body);
    const input = parseWith(action.schema, body);
    const clientKey = action.clientKey
      ? action.clientKey.of(input)
      : (input as { data?: { clientKey?: string } }).data?.clientKey;
    const where = action.clientKey?.path ?? 'data.clientKey';
    const client = admit(c, principal, action.scope, clientKey, where, describeAction(resource, name));
    const ctx = operationContext(c, principal, client);
    // Most handlers answer synchronously: awaiting a plain value would still cost a promise and a turn.
    const answer = action.handle(input, ctx, requestInfo(c, options));
    return send(c, answer instanceof Promise ? await answer : answer);
  });
}

/**
 * Mounts a plain endpoint resource (no `{data: {action}}` envelope) at its path, path parameters and all: one spec per
 * method; the same faults middleware, credentials, errors and journal as mountResource. A `public` endpoint reads no
 * credentials. Its input, checked by its schema, is
 * - for a JSON endpoint, the query string and the flat JSON body, checked before the client is admitted;
 * - for a document endpoint (`document`: http/documents.ts), the query string's and the path's parameters (its body
 *   is its file, read by its handler, or nothing), checked once the client (named by the query's `clientKey`) is.
 */
export function mountEndpoints(app: Hono<RequestEnv>, resource: PlainResource, options: RouterOptions): void {
  for (const endpoint of resource.endpoints) {
    const documents = endpoint.document ? documentOptions(resource, options) : undefined;
    const what = `${endpoint.method} ${resource.path}`;
    app.on(endpoint.method, honoPath(resource.path), async (c) => {
      const json = endpoint.method !== 'GET' && !documents;
      const body = json ? await readJsonObject(c, options.maxBodyBytes, { emptyAs: {} }) : {};
      const principal = identify(c, endpoint.scope);
      checkTextLimits(body);
      const parameters = documents ? documentParameters(c) : undefined;
      const checked = parameters ? undefined : parseWith(endpoint.schema, { ...searchParams(c), ...body });
      const clientKey = parameters ? parameters.query.clientKey : (checked as { clientKey?: string }).clientKey;
      const client = admit(c, principal, endpoint.scope, clientKey, 'clientKey', what);
      const input = parameters ? parseParameters(endpoint.schema, parameters.fields, c.req.path) : checked;
      const ctx = operationContext(c, principal, client);
      const info = requestInfo(c, options);
      const answer = endpoint.handle(input, ctx, documents ? documentRequest(c, info, documents) : info);
      return send(c, answer instanceof Promise ? await answer : answer);
    });
  }
}

/** Every parameter of the query string, the last of each name. */
function searchParams(c: Context): Record<string, string> {
  return Object.fromEntries(new URL(c.req.url).searchParams);
}

/** A document endpoint is mounted only by an app that keeps documents (http/app.ts). */
function documentOptions(resource: PlainResource, options: RouterOptions): DocumentRouting {
  if (!options.documents) throw new Error(`document endpoint ${resource.path} mounted without document options`);
  return options.documents;
}

function requestInfo(c: Context<RequestEnv>, options: RouterOptions): RequestInfo {
  return { header: (name) => c.req.header(name), publicBase: () => publicBase(c, options.publicUrl) };
}

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
  const value = operationValue(body, field);
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

/**
 * The MCP tools (docs/mcp.md), derived from the control table: every control route is a tool, named by its entry's
 * `tool`, its input schema made from the route's path parameters, query and body schemas, its description from the
 * entry's summary. A tool about one tenant's world takes `apiKey` (the scoped route, `/__sandbox/platforms/{apiKey}/…`).
 * Entries of different routes naming one tool are one tool with their verb as an input: the four recipient acts,
 * `act_as_recipient`. Nothing here names an operation: a control operation is a tool by its entry alone.
 */
import { z } from 'zod';
import { type ControlEntry, type ControlRequest, controlRoutes } from '../control-table/index.js';

type JsonSchema = Record<string, unknown> & { properties?: Record<string, unknown>; required?: string[] };

export interface Tool {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, unknown>; required?: string[] };
  /** The routes it calls: one, or one per verb (`act_as_recipient`). */
  routes: Map<string, ControlEntry>;
  /** Where each input goes: a path parameter, the query, or the body (a body that is not an object: `body`). */
  pathParams: string[];
  queryKeys: string[];
  wholeBody: boolean;
}

/** Sends one control request, scoped to a tenant when `apiKey` is given; a refusal throws with the API's message. */
export type Send = (entry: ControlEntry, request: ControlRequest, apiKey: string | undefined) => Promise<unknown>;

function jsonSchema(schema: z.ZodType): JsonSchema {
  try {
    const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
    return rest;
  } catch {
    return {}; // a schema JSON Schema cannot say: the operation still validates the input and names what is wrong
  }
}

function buildTool(name: string, entries: ControlEntry[]): Tool {
  const [first] = entries as [ControlEntry];
  const { op } = first;
  const pathParams = [...first.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const properties: Record<string, unknown> = {};
  const required = [...pathParams];
  for (const param of pathParams) properties[param] = { type: 'string' };
  const query = op.query ? jsonSchema(op.query()) : {};
  const queryKeys = Object.keys(query.properties ?? {});
  Object.assign(properties, query.properties);
  let wholeBody = false;
  for (const entry of entries) {
    const body = entry.op.body ? jsonSchema(entry.op.body()) : undefined;
    if (!body) continue;
    if (body.type === 'object' && body.properties) Object.assign(properties, body.properties);
    else {
      wholeBody = true;
      properties.body = { ...body, description: 'The request body, as the control API takes it' };
    }
  }
  const routes = new Map(entries.map((entry) => [entry.path.split('/').at(-1)!, entry]));
  let description = op.description ? `${op.summary}. ${op.description}` : op.summary;
  if (entries.length > 1) {
    properties.verb = { type: 'string', enum: [...routes.keys()], description: 'What the recipient does' };
    required.push('verb');
    description = `Act as a recipient: ${entries.map((e) => `${e.path.split('/').at(-1)} (${e.op.summary})`).join('; ')}`;
  }
  if (first.tenant)
    properties.apiKey = {
      type: 'string',
      description:
        "A tenant's API key: act in that tenant's world only (its clock, records, emails); none: the whole sandbox",
    };
  return {
    name,
    description,
    inputSchema: { type: 'object', properties, ...(required.length ? { required } : {}) },
    routes,
    pathParams,
    queryKeys,
    wholeBody,
  };
}

/** Every tool, in the control table's order. */
export function mcpTools(): Tool[] {
  const groups = new Map<string, ControlEntry[]>();
  for (const entry of controlRoutes()) {
    groups.set(entry.op.tool, [...(groups.get(entry.op.tool) ?? []), entry]);
  }
  return [...groups].map(([name, entries]) => buildTool(name, entries));
}

/** A tool call as the control request it stands for, sent; a refusal or a bad input throws with the message to show. */
export async function callTool(tool: Tool, args: Record<string, unknown>, send: Send): Promise<unknown> {
  const [first] = tool.routes.values();
  // A tenant's tool takes `apiKey` as its scope; any other tool's `apiKey` is its body's (a new tenant's own key).
  const { apiKey, verb, ...rest } = first?.tenant ? args : { ...args, apiKey: undefined };
  if (!first?.tenant && args.apiKey !== undefined) rest.apiKey = args.apiKey;
  const entry = tool.routes.size > 1 ? tool.routes.get(String(verb)) : first;
  if (!entry) throw new Error(`verb must be one of ${[...tool.routes.keys()].join(', ')}`);
  const request: ControlRequest = { params: {}, query: {}, body: {} };
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) {
    if (tool.pathParams.includes(key)) request.params[key] = String(value);
    else if (tool.queryKeys.includes(key)) request.query[key] = typeof value === 'string' ? value : String(value);
    else body[key] = value;
  }
  for (const param of tool.pathParams) if (request.params[param] === undefined) throw new Error(`${param} is required`);
  // As the route reads it: a body for POST and PUT, none otherwise.
  const bodied = entry.method === 'POST' || entry.method === 'PUT';
  request.body = !bodied ? undefined : tool.wholeBody ? (body.body ?? {}) : body;
  if (apiKey !== undefined && typeof apiKey !== 'string') throw new Error('apiKey must be a string');
  return send(entry, request, apiKey as string | undefined);
}

/**
 * The OpenAPI 3.1 document (GET /openapi.json), generated from the same zod schemas that validate requests:
 * the ResourceSpec tables of src/resources and the control operations of ./control.ts.
 *
 * The service multiplexes several operations on one path, chosen by `data.action` (or `data.type`, or a
 * top-level `action` for the token variants). OpenAPI allows one operation per path and method, so each
 * path has one POST whose request body is a `oneOf` of the actions' schemas, each titled with its action,
 * with one named example per action; the description tables the actions and the credentials each takes.
 */
import { z } from 'zod';
import type { ActionSpec, ResourceSpec, Scope } from '../resources/action.js';
import { resources } from '../resources/index.js';
import { VERSION } from '../config/version.js';
import { type ControlOperation, controlOperations } from './control.js';

type Json = Record<string, unknown>;

export interface DocumentOptions {
  /** The sandbox's own URL, for `servers`. */
  serverUrl?: string;
  /** Header that carries the API key (default X-Service-Key). */
  apiKeyHeader?: string;
  /** Extra control operations (modules mounted later). */
  extraControl?: ControlOperation[];
}

const ERROR_STATUSES: Record<string, string> = {
  '400': 'Body not JSON, no `data` wrapper, unknown action, or validation failure (every failing field in `errors`)',
  '401': 'No credentials, unknown, revoked or expired token (`Token expired`), wrong API key or secret',
  '403': 'A client token used for another client, or a platform-only operation',
  '404': 'Unknown key, or a key of another client or platform',
  '405': 'A method other than POST',
  '409': 'State conflict: archived contract, recipient acting out of turn',
  '413': 'Body over the size limit',
  '415': 'Content-Type is not JSON',
};

const SCOPE_TEXT: Record<Scope, string> = {
  public: 'none',
  platform: 'platform token or API-key header',
  client: 'client token, or platform token / API-key header with `data.clientKey`',
};

/** A zod schema as JSON Schema 2020-12 (the dialect of OpenAPI 3.1), as the caller sends it. */
export function jsonSchema(schema: z.ZodType): Json {
  const out = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  delete out.$schema;
  return out;
}

function wireName(name: string, action: ActionSpec): string {
  return action.wireName ?? name;
}

/** Where the operation name sits in the body, for the description. */
function selectorPath(resource: ResourceSpec): string {
  if (resource.select) return '`data.action` (platform token create) or `action` (client token create, revoke)';
  return `\`data.${resource.selector}\``;
}

function resourceOperation(resource: ResourceSpec): Json {
  const noun = resource.path.replace('/api/', '');
  const entries = Object.entries(resource.actions);
  const names = entries.map(([name, action]) => wireName(name, action));
  const rows = entries.map(([name, action]) => `| \`${wireName(name, action)}\` | ${action.summary} | ${SCOPE_TEXT[action.scope]} |`);
  const scopes = new Set(entries.map(([, a]) => a.scope));
  const security: Json[] = [];
  if ([...scopes].some((s) => s !== 'public')) security.push({ bearerToken: [] }, { apiKeyHeader: [] });
  if (scopes.has('public')) security.push({});
  const examples: Json = {};
  for (const [name, action] of entries) {
    if (action.example === undefined) continue;
    examples[name] = { summary: `${wireName(name, action)}: ${action.summary}`, value: action.example };
  }
  return {
    operationId: noun,
    tags: ['API'],
    summary: `${noun[0]!.toUpperCase()}${noun.slice(1)}: ${[...new Set(names)].join(', ')}`,
    description: [
      `Every operation on \`${resource.path}\` is a POST; ${selectorPath(resource)} picks it.`,
      '',
      '| operation | does | credentials |',
      '|---|---|---|',
      ...rows,
    ].join('\n'),
    security,
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: {
            oneOf: entries.map(([name, action]) => ({
              title: `${wireName(name, action)}${action.wireName && action.wireName !== name ? ` (${name})` : ''}`,
              description: action.summary,
              ...jsonSchema(action.schema),
            })),
          },
          examples,
        },
      },
    },
    responses: {
      '200': { description: 'Done (most reads and changes)', content: { 'application/json': { schema: { $ref: '#/components/schemas/Success' } } } },
      '201': { description: 'Created (creates, token create and revoke, some updates)', content: { 'application/json': { schema: { $ref: '#/components/schemas/Success' } } } },
      ...errorResponses(),
    },
  };
}

function errorResponses(only?: string[]): Json {
  const out: Json = {};
  for (const [status, description] of Object.entries(ERROR_STATUSES)) {
    if (only && !only.includes(status)) continue;
    out[status] = { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  }
  return out;
}

function controlOperation(op: ControlOperation): Json {
  const parameters: Json[] = [];
  for (const match of op.path.matchAll(/\{(\w+)\}/g)) parameters.push({ name: match[1], in: 'path', required: true, schema: { type: 'string' } });
  if (op.query) {
    const schema = jsonSchema(op.query) as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      const { description, ...rest } = property;
      parameters.push({ name, in: 'query', required: schema.required?.includes(name) ?? false, schema: rest, ...(description ? { description } : {}) });
    }
  }
  const status = String(op.response?.status ?? 200);
  return {
    operationId: `sandbox_${op.method}_${op.path.replace('/__sandbox/', '').replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+/g, '_')}`,
    tags: ['Sandbox control'],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(op.body
      ? {
          requestBody: {
            required: false,
            content: { 'application/json': { schema: jsonSchema(op.body), ...(op.example !== undefined ? { example: op.example } : {}) } },
          },
        }
      : {}),
    responses: {
      [status]: {
        description: 'Done',
        content: op.html
          ? { 'text/html': { schema: { type: 'string' } } }
          : { 'application/json': { schema: { type: 'object' }, ...(op.response ? { example: op.response.example } : {}) } },
      },
      ...errorResponses(op.body || op.query ? ['400', '404', '409', '413', '415'] : ['404']),
    },
  };
}

export function openApiDocument(options: DocumentOptions = {}): Json {
  const paths: Record<string, Json> = {};
  for (const resource of resources) paths[resource.path] = { post: resourceOperation(resource) };
  for (const op of [...controlOperations, ...(options.extraControl ?? [])]) {
    paths[op.path] = { ...(paths[op.path] ?? {}), [op.method]: controlOperation(op) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Contract Signing Service (esign-sandbox)',
      version: VERSION,
      description:
        'The Contract Signing Service API as the sandbox serves it under `/api`, plus the sandbox-only control API under `/__sandbox` (clock, tenants, journal, snapshots and more). Every `/api` operation is a POST with a JSON body; several operations share one path and are chosen by `data.action`.',
    },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl, description: 'This sandbox' }] } : {}),
    tags: [
      { name: 'API', description: 'The service interface (interface spec §4–5)' },
      { name: 'Sandbox control', description: 'Sandbox-only: no credentials, never part of the real service' },
    ],
    paths,
    components: {
      securitySchemes: {
        bearerToken: { type: 'http', scheme: 'bearer', description: 'A platform or client token from POST /api/token (1800 s of sandbox time)' },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: options.apiKeyHeader ?? 'X-Service-Key', description: 'The platform API key' },
      },
      schemas: {
        Success: {
          type: 'object',
          description: 'Resource fields sit at the top level beside code and message. Token create answers only access_token, token_type and expires_in.',
          properties: { code: { type: ['string', 'integer'] }, message: { type: 'string' } },
          additionalProperties: true,
        },
        Error: {
          type: 'object',
          required: ['code', 'message'],
          properties: {
            code: { type: 'integer', description: 'Equals the HTTP status' },
            message: { type: 'string' },
            errors: {
              type: 'array',
              items: { type: 'object', required: ['path', 'message'], properties: { path: { type: 'string', examples: ['data.contract.name'] }, message: { type: 'string' } } },
            },
          },
        },
      },
    },
  };
}

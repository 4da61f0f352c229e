/**
 * The OpenAPI 3.1 document (GET /openapi.json), generated from the same zod schemas that validate requests:
 * the ResourceSpec tables of src/resources and the control operations of ./control.ts.
 *
 * The service multiplexes several operations on one path, chosen by `data.action` (or `data.type`, or a
 * top-level `action` for the token variants). OpenAPI allows one operation per path and method, so each
 * path has one POST whose request body is a `oneOf` of the actions' schemas, each titled with its action,
 * with one named example per action; the description tables the actions and the credentials each takes.
 */
import type { ActionSpec, DocumentIO, EndpointSpec, PlainResource, ResourceSpec, Scope } from '../resources/action.js';
import { documentResources } from '../resources/documents.js';
import { NOT_EMULATED_PATHS } from '../resources/not-emulated.js';
import { plainResources, resources } from '../resources/index.js';
import { VERSION } from '../config/version.js';
import { DEFAULT_API_KEY_HEADER, REAL_SERVICE_KEY_HEADER } from '../core/credentials.js';
import { pause } from '../core/pause.js';
import { type ControlOperation, controlOperations } from './control.js';
import {
  API_SECURITY,
  INJECTED,
  type Json,
  errorResponses,
  jsonSchema,
  renderBusyResponse,
  outputSchema,
  statusesOf,
  successResponses,
} from './responses.js';

export interface DocumentOptions {
  /** The sandbox's own URL, for `servers`. */
  serverUrl?: string;
  /** Header that carries the API key (default X-Service-Key). */
  apiKeyHeader?: string;
  /** Extra control operations (modules mounted later). */
  extraControl?: ControlOperation[];
}

const SCOPE_TEXT: Record<Scope, string> = {
  public: 'none',
  authenticated: 'any credentials: a token or the API-key header',
  platform: 'platform token or API-key header',
  client: 'client token, or platform token / API-key header with `data.clientKey`',
};

/** What a plain endpoint's description says of its credentials. */
const ENDPOINT_SCOPE_TEXT: Record<Scope, string> = {
  public: 'No credentials: the share link in the input names the recipient.',
  authenticated: 'Any credentials.',
  platform: 'Platform credentials: a platform token or the API-key header.',
  client: 'Credentials as the other operations; `clientKey` names the client with platform credentials.',
};

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
  const rows = entries.map(
    ([name, action]) => `| \`${wireName(name, action)}\` | ${action.summary} | ${SCOPE_TEXT[action.scope]} |`,
  );
  const scopes = new Set(entries.map(([, a]) => a.scope));
  const security: Json[] = [];
  if ([...scopes].some((s) => s !== 'public')) security.push(...API_SECURITY);
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
      ...successResponses(
        entries.map(([name, action]) => ({
          title: wireName(name, action),
          schema: outputSchema(action.response),
        })),
      ),
      ...errorResponses(),
      ...INJECTED,
    },
  };
}

/**
 * A plain endpoint (no envelope). A JSON endpoint: query parameters for GET, a flat JSON body otherwise. A document
 * endpoint (`document`, resources/documents.ts): its query and path parameters, a multipart body for an upload, and
 * on success a file or JSON; those whose work goes through the render queue declare the queue's 503.
 */
function endpointOperation(resource: PlainResource, endpoint: EndpointSpec): Json {
  const noun = resource.path.replace('/api/', '');
  const { document } = endpoint;
  const get = endpoint.method === 'GET';
  return {
    operationId: endpoint.operationId ?? `${noun}_${endpoint.method.toLowerCase()}`,
    tags: ['API'],
    summary: endpoint.summary,
    // A document endpoint's summary says what goes in and out.
    ...(document
      ? {}
      : {
          description: `No \`{"data": {"action"}}\` envelope: ${get ? 'parameters in the query string' : 'a flat JSON body (query parameters are read too)'}. ${ENDPOINT_SCOPE_TEXT[endpoint.scope]}`,
        }),
    // A public document URL lists no scheme at all; a public JSON endpoint, the empty one.
    security: endpoint.scope === 'public' ? (document ? [] : [{}]) : API_SECURITY,
    ...(get || document
      ? { parameters: endpointParameters(resource.path, endpoint) }
      : {
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: jsonSchema(endpoint.schema),
                ...(endpoint.example ? { example: endpoint.example } : {}),
              },
            },
          },
        }),
    ...(document?.upload ? { requestBody: PDF_FORM } : {}),
    responses: {
      ...(document
        ? documentSuccess(endpoint, document)
        : successResponses([{ title: endpoint.method, schema: outputSchema(endpoint.response) }])),
      ...errorResponses(['400', '401', '403', '404', '405', '409', '413', '415', '429', '500', '503']),
      ...(document?.renders ? renderBusyResponse() : {}),
      ...INJECTED,
    },
  };
}

/** The parameters of the endpoint's schema: in the path when its path names them, else in the query string. */
function endpointParameters(path: string, endpoint: EndpointSpec): Json[] {
  const input = jsonSchema(endpoint.schema) as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(input.properties ?? {}).map(([name, property]) => {
    const { description, ...schema } = property;
    return {
      name,
      in: path.includes(`{${name}}`) ? 'path' : 'query',
      required: input.required?.includes(name) ?? false,
      schema,
      ...(description !== undefined ? { description } : {}),
    };
  });
}

/** A document endpoint's success: a file of its type, or its JSON `response` with the status of its `code`. */
function documentSuccess(endpoint: EndpointSpec, document: DocumentIO): Json {
  if (document.file) {
    return {
      '200': {
        description: document.answer,
        content: { [document.file]: { schema: { type: 'string', format: 'binary' } } },
      },
    };
  }
  const schema = outputSchema(endpoint.response);
  return {
    [statusesOf(schema)[0]!]: { description: document.answer, content: { 'application/json': { schema } } },
  };
}

/** A multipart body with the file in field `pdf` (a document endpoint's `upload`: upload_pdf, contract_email_sign_pdf). */
const PDF_FORM = {
  required: true,
  content: {
    'multipart/form-data': {
      schema: { type: 'object', required: ['pdf'], properties: { pdf: { type: 'string', format: 'binary' } } },
    },
  },
};

/** An AI endpoint the sandbox does not emulate (resources/not-emulated.ts): it answers 501. */
function notEmulatedOperation(path: string): Json {
  const name = path.replace('/api/', '');
  return {
    operationId: name,
    tags: ['API'],
    summary: `The AI assistant's ${name}: not emulated, answers 501`,
    security: API_SECURITY,
    responses: {
      '501': {
        description: 'Not emulated: the sandbox answers no AI requests',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
      ...INJECTED,
    },
  };
}

function controlOperation(op: ControlOperation): Json {
  const parameters: Json[] = [];
  for (const match of op.path.matchAll(/\{(\w+)\}/g))
    parameters.push({ name: match[1], in: 'path', required: true, schema: { type: 'string' } });
  if (op.query) {
    const schema = jsonSchema(op.query) as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      const { description, ...rest } = property;
      parameters.push({
        name,
        in: 'query',
        required: schema.required?.includes(name) ?? false,
        schema: rest,
        ...(description ? { description } : {}),
      });
    }
  }
  const status = String(op.response?.status ?? 200);
  return {
    operationId: `sandbox_${op.method}_${op.path
      .replace('/__sandbox/', '')
      .replace(/[{}]/g, '')
      .replace(/[^A-Za-z0-9]+/g, '_')}`,
    tags: ['Sandbox control'],
    // The control API takes no credentials.
    security: [],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(op.body
      ? {
          requestBody: {
            required: false,
            content: {
              'application/json': {
                schema: jsonSchema(op.body),
                ...(op.example !== undefined ? { example: op.example } : {}),
              },
            },
          },
        }
      : {}),
    responses: {
      [status]: {
        description: 'Done',
        content: op.html
          ? { 'text/html': { schema: { type: 'string' } } }
          : {
              'application/json': {
                schema: { type: 'object' },
                ...(op.response ? { example: op.response.example } : {}),
              },
            },
      },
      ...errorResponses(op.body || op.query ? ['400', '404', '409', '413', '415'] : ['404']),
    },
  };
}

type Paths = Record<string, Json>;

/** A plain resource's operations, by method. */
function plainOperations(resource: PlainResource): Json {
  return Object.fromEntries(resource.endpoints.map((e) => [e.method.toLowerCase(), endpointOperation(resource, e)]));
}

/** The document's paths as steps of work, one per resource or control operation, in the order they are written. */
function pathSteps(options: DocumentOptions): ((paths: Paths) => void)[] {
  return [
    (paths) => {
      for (const resource of documentResources) paths[resource.path] = plainOperations(resource);
      for (const path of NOT_EMULATED_PATHS) paths[path] = { post: notEmulatedOperation(path) };
    },
    ...resources.map((resource) => (paths: Paths) => {
      paths[resource.path] = { post: resourceOperation(resource) };
    }),
    ...plainResources.map((resource) => (paths: Paths) => {
      paths[resource.path] = plainOperations(resource);
    }),
    ...[...controlOperations(), ...(options.extraControl ?? [])].map((op) => (paths: Paths) => {
      paths[op.path] = { ...(paths[op.path] ?? {}), [op.method]: controlOperation(op) };
    }),
  ];
}

export function openApiDocument(options: DocumentOptions = {}): Json {
  const paths: Paths = {};
  for (const step of pathSteps(options)) step(paths);
  return documentWith(paths, options);
}

/**
 * The same document, built with a turn of the event loop after each step: `GET /openapi.json` builds it on its first
 * request, and in one go that held every other request of the sandbox ~150–230 ms (docs/openapi.md).
 */
export async function openApiDocumentInSteps(options: DocumentOptions = {}): Promise<Json> {
  const paths: Paths = {};
  for (const step of pathSteps(options)) {
    step(paths);
    await pause();
  }
  return documentWith(paths, options);
}

function documentWith(paths: Paths, options: DocumentOptions): Json {
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
      { name: 'API', description: 'The service interface, as docs/compatibility.md ("Operations") lists it' },
      { name: 'Sandbox control', description: 'Sandbox-only: no credentials, never part of the real service' },
    ],
    paths,
    components: {
      securitySchemes: {
        bearerToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'A platform or client token from POST /api/token (1800 s of sandbox time)',
        },
        apiKeyHeader: {
          type: 'apiKey',
          in: 'header',
          name: options.apiKeyHeader ?? DEFAULT_API_KEY_HEADER,
          description: 'The platform API key',
        },
        sendforsignKey: {
          type: 'apiKey',
          in: 'header',
          name: REAL_SERVICE_KEY_HEADER,
          description: "The platform API key in the real service's header (always accepted)",
        },
      },
      schemas: {
        Error: {
          type: 'object',
          additionalProperties: false,
          required: ['code', 'message'],
          properties: {
            code: { type: 'integer', description: 'Equals the HTTP status' },
            message: { type: 'string' },
            errors: {
              type: 'array',
              items: {
                type: 'object',
                required: ['path', 'message'],
                properties: { path: { type: 'string', examples: ['data.contract.name'] }, message: { type: 'string' } },
              },
            },
          },
        },
      },
    },
  };
}

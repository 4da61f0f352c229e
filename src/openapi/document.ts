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
import type { ActionSpec, EndpointSpec, PlainResource, ResourceSpec, Scope } from '../resources/action.js';
import { plainResources, resources } from '../resources/index.js';
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
  '403': 'An invalid API key, a client token used for another client, or a platform-only operation',
  '404': 'Unknown key, or a key of another client or platform',
  '405': 'A method other than POST',
  '409': 'State conflict: archived contract, recipient acting out of turn',
  '413': 'Body over the size limit',
  '415': 'Content-Type is not JSON',
  '429': 'Only when injected on purpose (POST /__sandbox/faults): too many requests, with Retry-After',
  '500': 'Only when injected on purpose (POST /__sandbox/faults); a sandbox bug also answers a JSON 500',
  '503': 'Only when injected on purpose (POST /__sandbox/faults): service unavailable, with Retry-After',
};

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

/** A zod schema as JSON Schema 2020-12 (the dialect of OpenAPI 3.1), as the caller sends it. */
export function jsonSchema(schema: z.ZodType): Json {
  const out = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  delete out.$schema;
  return out;
}

/** A zod schema as JSON Schema 2020-12, as the sandbox sends it (responses). */
export function outputSchema(schema: z.ZodType): Json {
  const out = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  delete out.$schema;
  return out;
}

/** The HTTP statuses a success schema answers: its `code` (string or number), 201 for the token bodies, 200 for arrays. */
function statusesOf(schema: Json): string[] {
  if (schema.type === 'array') return ['200'];
  const variants = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (variants) return [...new Set(variants.flatMap(statusesOf))];
  const code = (schema.properties as Record<string, Json> | undefined)?.code;
  return code?.const !== undefined ? [String(code.const)] : ['201'];
}

/** Success responses by status: each status's body is any of the schemas of the operations that answer it. */
function successResponses(schemas: { title: string; schema: Json }[]): Json {
  const byStatus = new Map<string, Json[]>();
  for (const { title, schema } of schemas) {
    for (const status of statusesOf(schema))
      byStatus.set(status, [...(byStatus.get(status) ?? []), { title, ...schema }]);
  }
  const out: Json = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a.localeCompare(b))) {
    out[status] = {
      description: status === '200' ? 'Found or done' : 'Created or changed',
      content: { 'application/json': { schema: list.length === 1 ? list[0] : { anyOf: list } } },
    };
  }
  return out;
}

const API_SECURITY: Json[] = [{ bearerToken: [] }, { apiKeyHeader: [] }, { sendforsignKey: [] }];

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

/** A plain endpoint (no envelope): query parameters for GET, a flat JSON body otherwise. */
function endpointOperation(resource: PlainResource, endpoint: EndpointSpec): Json {
  const noun = resource.path.replace('/api/', '');
  const input = jsonSchema(endpoint.schema) as { properties?: Record<string, Json>; required?: string[] };
  const get = endpoint.method === 'GET';
  const response = endpoint.response;
  return {
    operationId: `${noun}_${endpoint.method.toLowerCase()}`,
    tags: ['API'],
    summary: endpoint.summary,
    description: `No \`{"data": {"action"}}\` envelope: ${get ? 'parameters in the query string' : 'a flat JSON body (query parameters are read too)'}. ${ENDPOINT_SCOPE_TEXT[endpoint.scope]}`,
    security: endpoint.scope === 'public' ? [{}] : API_SECURITY,
    ...(get
      ? {
          parameters: Object.entries(input.properties ?? {}).map(([name, schema]) => ({
            name,
            in: 'query',
            required: input.required?.includes(name) ?? false,
            schema,
          })),
        }
      : {
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: input, ...(endpoint.example ? { example: endpoint.example } : {}) },
            },
          },
        }),
    responses: {
      ...successResponses([{ title: endpoint.method, schema: outputSchema(response) }]),
      ...errorResponses(['400', '401', '403', '404', '405', '409', '413', '415', '429', '500', '503']),
      ...INJECTED,
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

/** An /api answer with any other status comes only from a fault injected on purpose (`status` of POST /__sandbox/faults). */
const INJECTED: Json = {
  default: {
    description: 'Any other status, only when injected on purpose (POST /__sandbox/faults `status`, e.g. 502)',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  },
};

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

/**
 * The document endpoints (http/documents.ts, docs/documents.md): not envelopes, and not JSON on success, so they are
 * described here as they are rather than derived from a resource table.
 */
function documentOperations(): Record<string, Json> {
  const query = (name: string, description: string, required = true) => ({
    name,
    in: 'query',
    required,
    schema: { type: 'string' },
    description,
  });
  const clientKey = query('clientKey', 'The client, with platform credentials (a client token names its own)', false);
  const errors = errorResponses(['400', '401', '403', '404', '405', '409', '413', '415', '429', '500', '503']);
  const file = (type: string, description: string) => ({
    '200': { description, content: { [type]: { schema: { type: 'string', format: 'binary' } } } },
    ...errors,
    ...INJECTED,
  });
  const get = (operationId: string, summary: string, parameters: Json[], type: string, description: string) => ({
    get: {
      operationId,
      tags: ['API'],
      summary,
      security: API_SECURITY,
      parameters,
      responses: file(type, description),
    },
  });
  const pdf = 'application/pdf';
  /** A multipart body with the file in field `pdf` (upload_pdf, contract_email_sign_pdf). */
  const pdfForm = {
    required: true,
    content: {
      'multipart/form-data': {
        schema: { type: 'object', required: ['pdf'], properties: { pdf: { type: 'string', format: 'binary' } } },
      },
    },
  };
  // The URL a PDF's `value` names: no credentials, the file's SHA-256 in the path (http/documents.ts).
  const publicFile = (kind: 'contract' | 'template') => ({
    get: {
      operationId: `${kind}_pdf_public`,
      tags: ['API'],
      summary: `The uploaded PDF of a PDF ${kind}, as uploaded, with no credentials: the absolute URL its \`value\` holds`,
      security: [],
      parameters: [
        { name: `${kind}Key`, in: 'path', required: true, schema: { type: 'string' } },
        { name: 'file', in: 'path', required: true, schema: { type: 'string' }, description: '`<sha256>.pdf`' },
      ],
      responses: file(pdf, 'The uploaded PDF'),
    },
  });
  const docx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
  return {
    '/api/upload_pdf': {
      post: {
        operationId: 'upload_pdf',
        tags: ['API'],
        summary: 'Upload the PDF of a PDF contract or template (multipart/form-data, field `pdf`)',
        security: API_SECURITY,
        parameters: [
          query('contractKey', 'The contract (or give templateKey)', false),
          query('templateKey', 'The template (or give contractKey)', false),
          clientKey,
        ],
        requestBody: pdfForm,
        responses: {
          '201': {
            description: 'PDF uploaded',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['code', 'message'],
                  properties: {
                    contract: { $ref: '#/components/schemas/UploadedPdf' },
                    template: { $ref: '#/components/schemas/UploadedPdf' },
                    code: { const: '201' },
                    message: { const: 'PDF uploaded' },
                  },
                },
              },
            },
          },
          ...errors,
          ...INJECTED,
        },
      },
    },
    '/api/download_pdf': get(
      'download_pdf',
      'The contract as a PDF: HTML rendered, or the uploaded PDF with its fields drawn; an audit trail page once fully signed',
      [query('contractKey', 'The contract'), clientKey],
      pdf,
      'The PDF',
    ),
    '/api/recipient_download_pdf': {
      get: {
        operationId: 'recipient_download_pdf',
        tags: ['API'],
        summary:
          'The contract as a PDF for the holder of a share link (no credentials: the link is the key), as the recipient page offers it once fully signed',
        security: [],
        parameters: [query('shareLink', "A share link: a recipient's key, or a link made with contract_share_link")],
        responses: file(pdf, 'The PDF'),
      },
    },
    '/api/download_docx': get(
      'download_docx',
      'An HTML contract as a DOCX (PDF contracts: 400)',
      [query('contractKey', 'The contract'), clientKey],
      docx,
      'The DOCX',
    ),
    '/api/contract_pdf/{contractKey}': get(
      'contract_pdf',
      'The uploaded PDF of a PDF contract, as uploaded (its `value`)',
      [{ name: 'contractKey', in: 'path', required: true, schema: { type: 'string' } }, clientKey],
      pdf,
      'The uploaded PDF',
    ),
    '/api/contract_pdf/{contractKey}/{file}': publicFile('contract'),
    '/api/template_pdf/{templateKey}/{file}': publicFile('template'),
    '/api/contract_email_sign_pdf': {
      post: {
        operationId: 'contract_email_sign_pdf',
        tags: ['API'],
        summary:
          "The owner's signed copy, merged in the browser (multipart field `pdf`): checked as a PDF, not kept; the confirmation email of the owner's signature goes to the outbox",
        security: API_SECURITY,
        parameters: [query('contractKey', 'The contract'), clientKey],
        requestBody: pdfForm,
        responses: {
          '201': {
            description: 'Email sent',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['result', 'code', 'message'],
                  properties: { result: { const: true }, code: { const: '201' }, message: { const: 'Email sent' } },
                },
              },
            },
          },
          ...errors,
          ...INJECTED,
        },
      },
    },
    ...Object.fromEntries(
      ['context', 'context_files', 'chat'].map((name) => [
        `/api/${name}`,
        {
          post: {
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
          },
        },
      ]),
    ),
    '/api/template_pdf/{templateKey}': get(
      'template_pdf',
      'The uploaded PDF of a PDF template, as uploaded (its `value`)',
      [{ name: 'templateKey', in: 'path', required: true, schema: { type: 'string' } }, clientKey],
      pdf,
      'The uploaded PDF',
    ),
  };
}

export function openApiDocument(options: DocumentOptions = {}): Json {
  const paths: Record<string, Json> = { ...documentOperations() };
  for (const resource of resources) paths[resource.path] = { post: resourceOperation(resource) };
  for (const resource of plainResources) {
    paths[resource.path] = Object.fromEntries(
      resource.endpoints.map((e) => [e.method.toLowerCase(), endpointOperation(resource, e)]),
    );
  }
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
        bearerToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'A platform or client token from POST /api/token (1800 s of sandbox time)',
        },
        apiKeyHeader: {
          type: 'apiKey',
          in: 'header',
          name: options.apiKeyHeader ?? 'X-Service-Key',
          description: 'The platform API key',
        },
        sendforsignKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Sendforsign-Key',
          description: "The platform API key in the real service's header (always accepted)",
        },
      },
      schemas: {
        UploadedPdf: {
          type: 'object',
          additionalProperties: false,
          properties: {
            contractKey: { type: 'string' },
            templateKey: { type: 'string' },
            changeTime: { type: 'string', description: 'ISO 8601' },
            contractType: { const: 'pdf' },
            value: {
              type: 'string',
              description: 'The path that serves the file (/api/contract_pdf/… or /api/template_pdf/…)',
            },
            pages: { type: 'integer' },
            bytes: { type: 'integer' },
            sha256: { type: 'string' },
          },
        },
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

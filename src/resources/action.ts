/**
 * How an `/api` operation is described, in one kit: each with its zod schema (the single source of truth for
 * validation, for the OpenAPI document, src/openapi/, and for the package's types), who may call it, its success
 * schema, and a thin handler. Two shapes of path: an envelope resource (`ResourceSpec`, `defineAction`: one POST path,
 * the operation named by `data.action`), mounted by http/router.ts `mountResource`; and a plain resource
 * (`PlainResource`, `defineEndpoint`: one endpoint per method, no envelope), mounted by http/router.ts
 * `mountEndpoints`, the document endpoints among them (`document`: files in or out, resources/documents.ts).
 */
import { z } from 'zod';
import { ApiError, quote } from '../core/errors.js';
import type { OpContext } from '../domain/context.js';
import { lazy } from '../core/lazy.js';
import type { Renderer } from '../render/renderer.js';
import type { DocumentStore, PdfFile } from '../store/documents.js';

/**
 * Who may call an operation (http/auth.ts checks it):
 * - `public`: no credentials, none read (platform token create; endpoints keyed by a share link);
 * - `authenticated`: any credentials;
 * - `platform`: a platform token or the API-key header; client tokens get 403;
 * - `client`: acts for one client, from a client token or from the client key (`data.clientKey` in an envelope,
 *   `clientKey` in a plain endpoint's input) with platform credentials.
 */
export type Scope = 'public' | 'authenticated' | 'platform' | 'client';

export interface Reply {
  status: number;
  /** An object (every envelope operation), raw bytes (long lists), an array (the plain endpoints' lists) or a file. */
  body: Record<string, unknown> | RawJson | unknown[] | FileBody;
  /**
   * Compatibility warnings (docs/compatibility.md): the sandbox accepted what a source says the real service treats
   * differently. Sent as `X-Sandbox-Warning` and kept in the request journal.
   */
  warnings?: string[];
}

/** What a handler may read of the HTTP request besides its body. */
export interface RequestInfo {
  /** A header, by case-insensitive name. */
  header(name: string): string | undefined;
  /** The base of absolute URLs in the answer: `--public-url`, else the request's origin (http/public-url.ts). */
  publicBase(): string;
}

/**
 * A body already serialised to UTF-8 (a list of cached rows, see `listReply`); the router sends it as it is. The one
 * list device, behind `listReply` and `Table.listRowsWhere`: it earns its place on the list figure (contract list with
 * 10,000 stored, 5 × 100 lists, medians; docs/benchmarks.md "Performance devices"): p50 19 ms, p99 73 ms with it;
 * rows built and serialised per list, p50 119 ms, p99 291 ms (same run, a machine at load 15–20 on 2 cores; the
 * target, p99 < 25 ms, is judged on a quiet machine).
 */
export class RawJson {
  constructor(readonly bytes: Uint8Array<ArrayBuffer>) {}
}

/**
 * A file as an answer (the document endpoints): sent with its type, its length and a Content-Disposition naming it
 * (`inline`: shown in the browser rather than saved), never cached.
 */
export class FileBody {
  constructor(
    readonly bytes: Uint8Array,
    readonly type: string,
    readonly filename: string,
    readonly disposition: 'attachment' | 'inline' = 'attachment',
  ) {}
}

export interface ActionSpec<S extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  summary: string;
  scope: Scope;
  /** Built on first read (see lazy.ts): a start that serves no /api request builds no schema. */
  readonly schema: S;
  /** For `client` scope: where the client key sits in the body (default `data.clientKey`). */
  clientKey?: { of: (input: z.infer<S>) => string | undefined; path: string };
  /** The `action`/`type` value the caller sends (defaults to the action's name in the table). */
  wireName?: string;
  handle: (input: z.infer<S>, ctx: OpContext, request: RequestInfo) => Reply | Promise<Reply>;
  /** A request body that works, for docs and OpenAPI. */
  example?: unknown;
  /** The success body (OpenAPI's response schema, the exported answer type), written beside the function that builds it; built on first read. */
  readonly response: R;
}

export interface ResourceSpec {
  /** e.g. `/api/contract` */
  path: string;
  /** Field that selects the operation inside `data` (`action`, or `type` for settings). */
  selector: 'action' | 'type';
  /** Picks the action for bodies that do not follow the `data.<selector>` rule (the token endpoint). */
  select?: (body: Record<string, unknown>) => string;
  // biome-ignore lint/suspicious/noExplicitAny: a table of actions, each with its own input type
  actions: Record<string, ActionSpec<any>>;
}

/**
 * A plain endpoint: the real service's paths that take no `{data: {action}}` envelope. One spec per method; the input,
 * validated by `schema`, is either
 * - the query string's parameters merged with the flat JSON body (for methods with a body): `/api/contract_event`,
 *   `/api/event_status`, `/api/contract_share_link` and the other component-only paths [C]; or
 * - for a document endpoint (files in or out, `document`: upload_pdf, download_pdf, the uploaded files…), the query
 *   string's parameters and the path's (`/api/contract_pdf/{contractKey}/{file}`), its body being the file or nothing.
 * Same credentials, error rendering and journal as the envelope operations.
 */
export type EndpointMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface EndpointSpec<
  S extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
  M extends EndpointMethod = EndpointMethod,
  Q extends RequestInfo = RequestInfo,
> {
  method: M;
  summary: string;
  /** `public` endpoints (keyed by a share link, say) read no credentials; `client` ones take `clientKey` from the input. */
  scope: Scope;
  readonly schema: S;
  /** A document endpoint's handler is handed a DocumentRequest (the uploaded PDF, the file adapters). */
  handle: (input: z.infer<S>, ctx: OpContext, request: Q) => Reply | Promise<Reply>;
  /** A query string or body that works, for docs and OpenAPI. */
  example?: Record<string, unknown>;
  /**
   * The success body (OpenAPI's response schema, the exported answer type), written beside the function that builds
   * it; built on first read. `z.never()` for an endpoint whose success is a file.
   */
  readonly response: R;
  /** Its name in the OpenAPI document, when not `<path under /api/>_<method>` (the document endpoints'). */
  operationId?: string;
  /** Files in or out: a document endpoint (docs/documents.md). */
  document?: DocumentIO;
}

/**
 * What makes an endpoint a document endpoint: its keys come from the query string and the path (an empty one is
 * absent; a missing one is named with an example URL), checked once its caller's client is admitted; its body is a
 * PDF upload or nothing; its success a file or JSON.
 */
export interface DocumentIO {
  /** Its body is multipart/form-data with the PDF in field `pdf` (`DocumentRequest.pdf()`). */
  upload?: true;
  /** Its success is a file of this content type (a FileBody); without it, the JSON `response`. */
  file?: string;
  /** What its success answer is, as the OpenAPI document describes it. */
  answer: string;
  /** Its work goes through the render queue, which may answer 503 (render/queue.ts). */
  renders: boolean;
}

export interface PlainResource {
  /** e.g. `/api/contract_share_link`; a document endpoint's may hold path parameters (`/api/contract_pdf/{contractKey}`). */
  path: string;
  // biome-ignore lint/suspicious/noExplicitAny: a list of endpoints, each with its own input and request type
  endpoints: EndpointSpec<any, z.ZodType, EndpointMethod, any>[];
}

/** A plain resource from its path and endpoints, their types kept (the package's API types read them). */
// biome-ignore lint/suspicious/noExplicitAny: endpoints, each with its own input and request type
export function plainResource<const E extends EndpointSpec<any, z.ZodType, EndpointMethod, any>[]>(
  path: string,
  ...endpoints: E
) {
  return { path, endpoints } satisfies PlainResource;
}

/** An operation as a resource file writes it: the schemas come as functions, each called once on first use. */
export type Definition<Spec extends { schema: z.ZodType; response: z.ZodType }> = Omit<Spec, 'schema' | 'response'> & {
  schema: () => Spec['schema'];
  response: () => Spec['response'];
};

/**
 * An action or an endpoint from its definition: the one kit of every /api operation. Its schemas are built on first
 * read (lazy.ts), so a start that serves no /api request builds none.
 */
function defineOperation<Spec extends { schema: z.ZodType; response: z.ZodType }>(definition: Definition<Spec>): Spec {
  const schema = lazy(definition.schema);
  const response = lazy(definition.response);
  return {
    ...definition,
    get schema() {
      return schema();
    },
    get response() {
      return response();
    },
  } as unknown as Spec;
}

export const defineAction = <S extends z.ZodType, R extends z.ZodType>(
  definition: Definition<ActionSpec<S, R>>,
): ActionSpec<S, R> => defineOperation(definition);

/** A document endpoint's handler takes a DocumentRequest, and only a document endpoint's (one with `document`). */
export const defineEndpoint = <
  S extends z.ZodType,
  R extends z.ZodType,
  M extends EndpointMethod,
  Q extends RequestInfo = RequestInfo,
>(
  definition: Definition<EndpointSpec<S, R, M, Q>> & (Q extends DocumentRequest ? { document: DocumentIO } : unknown),
): EndpointSpec<S, R, M, Q> => defineOperation(definition);

/**
 * A success body. Resource fields sit at the top level beside `code` and `message` (docs/compatibility.md, "Codes"); `code` is a
 * string except where the real service sends a number (`numericCode`).
 */
export function reply(
  status: 200 | 201,
  message: string,
  fields: Record<string, unknown> = {},
  options: { numericCode?: boolean } = {},
): Reply {
  return { status, body: { ...fields, code: options.numericCode ? status : String(status), message } };
}

/**
 * `{"<field>": [rows…], "code": "200", "message": …}` from rows already serialised as JSON (UTF-8): the same text
 * `reply(200, message, {[field]: rows})` gives for the parsed rows.
 */
export function listReply(message: string, field: string, rows: readonly Uint8Array[]): Reply {
  const head = Buffer.from(`{${JSON.stringify(field)}:[`);
  const tail = Buffer.from(`],"code":"200","message":${JSON.stringify(message)}}`);
  let size = head.length + tail.length + Math.max(0, rows.length - 1);
  for (const row of rows) size += row.length;
  const body = Buffer.allocUnsafe(size);
  let at = head.copy(body, 0);
  rows.forEach((row, i) => {
    if (i > 0) body[at++] = 0x2c; // ','
    body.set(row, at);
    at += row.length;
  });
  tail.copy(body, at);
  return { status: 200, body: new RawJson(body) };
}

/** A body `{"data": {...}}`: the wrapper every operation except the token variants uses. */
export function dataBody<T extends z.ZodRawShape>(shape: T) {
  return z.object({ data: z.object(shape) });
}

/** `data.clientKey`: optional in the schema; whether it is needed depends on the credentials (auth.ts). */
export const clientKeyField = () => z.string().optional();

/**
 * An optional key (`userKey`, `recipientKey`, `templateKey`): real clients send `""` for "none", and the real service
 * takes it as absent (docs/compatibility.md).
 */
export const optionalKeyField = () =>
  z
    .string()
    .optional()
    .transform((v) => (v === '' ? undefined : v));

/** The start of most bodies: the action, the client (with platform credentials) and the user acting for it. */
export const acting = <A extends string>(action: A) => ({
  action: z.literal(action),
  clientKey: clientKeyField(),
  userKey: optionalKeyField(),
});

/** A key the caller sends back to us: a non-empty string. */
export const keyField = () => z.string().min(1, 'Must not be empty');

/** `contract: {contractKey}` or `template: {templateKey}`: the one record an action works on, by its key. */
export const byKey = <K extends 'contract' | 'template'>(kind: K) =>
  ({ [kind]: z.object({ [`${kind}Key`]: keyField() }) }) as {
    [P in K]: z.ZodObject<{ [Q in `${K}Key`]: z.ZodString }>;
  };

/** The `action`/`type` value a caller sends for the action named `name` in the table. */
export function wireName(resource: ResourceSpec, name: string): string {
  return resource.actions[name]?.wireName ?? name;
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
    throw ApiError.badRequest(
      `Unknown ${label} ${quote(value)} for ${resource.path}; valid ${label}s: ${valid.join(', ')}`,
      [{ path, message: `Must be one of: ${valid.join(', ')}` }],
    );
  }
  return name;
}

/** The name and email a signer or approver types, and `ipInfo` (a JSON string of where it is): sign and approve bodies. */
export const signerFields = lazy(() => ({
  fullName: z.string().trim().min(1, 'Must not be empty').max(200),
  email: z.string().trim().min(1, 'Must not be empty').max(320),
  ipInfo: z.string().optional(),
}));

/**
 * What a document endpoint's handler reads besides its input (one with `document`): the uploaded PDF and the
 * adapters that keep and draw files.
 */
export interface DocumentRequest extends RequestInfo {
  /** The PDF in the multipart body's field `pdf`, within the upload limit (415, 400 or 413 otherwise). */
  pdf(): Promise<PdfFile>;
  /** Where uploaded files are kept, and what draws documents (render/renderer.ts). */
  documents: DocumentStore;
  renderer: Renderer;
}

/**
 * The document endpoints over HTTP (their declarations: resources/documents.ts): each mounted at its path, its caller
 * and client checked as on every /api call, its handler handed the request's parameters, the uploaded PDF read from
 * a multipart body within the upload limit, and its file sent as a file. Errors are ApiErrors, rendered by app.ts.
 */
import type { Context, Hono } from 'hono';
import { admit, identify, operationContext } from './auth.js';
import { readBytes, refuseUnread } from './body.js';
import { ApiError, quote } from '../core/errors.js';
import { honoPath } from '../core/route-path.js';
import type { DocumentStore } from '../store/documents.js';
import type { DocumentEndpoint, DocumentRequest } from '../resources/action.js';
import { publicBase } from './public-url.js';
import type { Renderer } from '../render/renderer.js';
import type { RequestEnv } from '../domain/request-facts.js';
import { send } from './reply.js';

export interface DocumentRouteOptions {
  documents: DocumentStore;
  /** Largest accepted file, bytes (`--max-upload`). */
  maxUploadBytes: number;
  /** `--public-url`, when given (http/public-url.ts). */
  publicUrl?: string | undefined;
  /** Draws the documents (render/renderer.ts): on a worker thread, its libraries loaded by the first job. */
  renderer: Renderer;
}

/** Room the multipart wrapping (boundaries, part headers) may take beyond the file itself. */
const MULTIPART_SLACK = 64 * 1024;

/** Mounts each document endpoint; other methods on its path get the one 405 (http/app.ts). */
export function mountDocuments(
  app: Hono<RequestEnv>,
  endpoints: readonly DocumentEndpoint[],
  options: DocumentRouteOptions,
): void {
  for (const endpoint of endpoints) {
    app.on(endpoint.method, honoPath(endpoint.path), async (c) => {
      const principal = identify(c, endpoint.scope);
      const query = c.req.query();
      const what = `${endpoint.method} ${endpoint.path}`;
      const client = admit(c, principal, endpoint.scope, query.clientKey || undefined, 'clientKey', what);
      return send(c, await endpoint.handle(documentRequest(c, options), operationContext(c, principal, client, query)));
    });
  }
}

function documentRequest(c: Context<RequestEnv>, options: DocumentRouteOptions): DocumentRequest {
  return {
    header: (name) => c.req.header(name),
    publicBase: () => publicBase(c, options.publicUrl),
    query: (name) => c.req.query(name) || undefined,
    param: (name) => c.req.param(name) ?? '',
    required: (name) => requiredQuery(c, name),
    pdf: () => readPdfField(c, options.maxUploadBytes),
    documents: options.documents,
    renderer: options.renderer,
  };
}

function requiredQuery(c: Context, name: string): string {
  const value = c.req.query(name);
  if (value === undefined || value === '') {
    throw ApiError.badRequest(
      `Query parameter ${name} is required, e.g. ${c.req.path}?${name}=<KEY>&clientKey=<CLIENT_KEY>`,
      [{ path: name, message: 'Required' }],
    );
  }
  return value;
}

/** The `pdf` file of a multipart/form-data body, within the upload limit (413 past it). */
async function readPdfField(c: Context, maxUploadBytes: number): Promise<Uint8Array> {
  const type = c.req.header('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(type) || !/boundary=/i.test(type)) {
    throw new ApiError(
      415,
      `Content-Type must be multipart/form-data with the file in field "pdf" (got ${type ? quote(type, 100) : 'none'})`,
    );
  }
  const body = await readLimited(c.req.raw, maxUploadBytes + MULTIPART_SLACK, maxUploadBytes);
  let form: FormData;
  try {
    // Node's own multipart parser (undici, behind Response.formData).
    form = await new Response(body, { headers: { 'content-type': type } }).formData();
  } catch {
    throw ApiError.badRequest(
      'Request body is not valid multipart/form-data (check the boundary and that the body is complete)',
    );
  }
  const field = form.get('pdf');
  if (field === null) {
    const names = [...new Set([...form.keys()])];
    throw ApiError.badRequest(
      `No field "pdf" in the form${names.length ? ` (got ${names.map((n) => quote(n, 40)).join(', ')})` : ''}; send the file as pdf=@file.pdf`,
      [{ path: 'pdf', message: 'Required' }],
    );
  }
  if (typeof field === 'string') {
    throw ApiError.badRequest(
      'Field "pdf" must be a file (a part with a filename), not a text value; send it as pdf=@file.pdf',
      [{ path: 'pdf', message: 'Not a file' }],
    );
  }
  if (field.size > maxUploadBytes) throw tooLarge(maxUploadBytes, field.size);
  return new Uint8Array(await field.arrayBuffer());
}

async function readLimited(request: Request, maxBody: number, maxFile: number): Promise<Uint8Array> {
  // An API fault that matches on bodies reads the body as text first, which a binary upload does not survive.
  if (request.bodyUsed)
    throw ApiError.badRequest(
      'The upload was already read as text by an API fault that matches request bodies; such faults cannot cover /api/upload_pdf',
    );
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBody) return refuseUnread(request, declared, tooLarge(maxFile));
  return new Uint8Array(await readBytes(request, maxBody, () => tooLarge(maxFile)));
}

function tooLarge(maxFile: number, size?: number): ApiError {
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  return new ApiError(
    413,
    `The file is larger than the upload limit of ${maxFile} bytes (${mb(maxFile)})${size ? `: it is ${size} bytes` : ''}; start the sandbox with --max-upload to change it`,
  );
}

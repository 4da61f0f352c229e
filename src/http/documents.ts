/**
 * The document endpoints over HTTP (their declarations: resources/documents.ts): each mounted at its path, its caller
 * and client checked as on every /api call, its handler handed the request's parameters, the uploaded PDF read from
 * a multipart body within the upload limit, and its file sent as a file. Errors are ApiErrors, rendered by app.ts.
 */
import type { Context, Hono } from 'hono';
import { admit, identify, operationContext } from './auth.js';
import { ApiError } from '../core/errors.js';
import { honoPath } from '../core/route-path.js';
import type { TurnShare } from '../core/turn-share.js';
import type { DocumentStore } from '../store/documents.js';
import type { DocumentEndpoint, DocumentRequest } from '../resources/action.js';
import { publicBase } from './public-url.js';
import { readPdfUpload, uploadTurns } from './upload.js';
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

/** Mounts each document endpoint; other methods on its path get the one 405 (http/app.ts). */
export function mountDocuments(
  app: Hono<RequestEnv>,
  endpoints: readonly DocumentEndpoint[],
  options: DocumentRouteOptions,
): void {
  const turns = uploadTurns();
  for (const endpoint of endpoints) {
    app.on(endpoint.method, honoPath(endpoint.path), async (c) => {
      const principal = identify(c, endpoint.scope);
      const query = c.req.query();
      const what = `${endpoint.method} ${endpoint.path}`;
      const client = admit(c, principal, endpoint.scope, query.clientKey || undefined, 'clientKey', what);
      return send(c, await endpoint.handle(documentRequest(c, options, turns), operationContext(c, principal, client)));
    });
  }
}

function documentRequest(c: Context<RequestEnv>, options: DocumentRouteOptions, turns: TurnShare): DocumentRequest {
  return {
    header: (name) => c.req.header(name),
    publicBase: () => publicBase(c, options.publicUrl),
    query: (name) => c.req.query(name) || undefined,
    param: (name) => c.req.param(name) ?? '',
    required: (name) => requiredQuery(c, name),
    pdf: () => readPdfUpload(c, options.maxUploadBytes, turns),
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

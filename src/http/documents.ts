/**
 * What the document endpoints (resources/documents.ts: plain endpoints marked `document`) need of the HTTP edge beside
 * the one mounter (router.ts `mountEndpoints`): their parameters read from the query string and the path, a missing
 * one named with an example URL, and a request whose `pdf()` reads the uploaded PDF from a multipart body within the
 * upload limit. Errors are ApiErrors, rendered by app.ts.
 */
import type { Context } from 'hono';
import type { z } from 'zod';
import { ApiError } from '../core/errors.js';
import type { TurnShare } from '../core/turn-share.js';
import { errorMessage, validationError } from '../core/validation.js';
import type { DocumentStore } from '../store/documents.js';
import type { DocumentRequest, RequestInfo } from '../resources/action.js';
import { readPdfUpload, uploadTurns } from './upload.js';
import type { Renderer } from '../render/renderer.js';

export interface DocumentRouteOptions {
  documents: DocumentStore;
  /** Largest accepted file, bytes (`--max-upload`). */
  maxUploadBytes: number;
  /** Draws the documents (render/renderer.ts): on a worker thread, its libraries loaded by the first job. */
  renderer: Renderer;
}

/** The document options of one app, with how its uploads share the event loop's turns (one share per app). */
export interface DocumentRouting extends DocumentRouteOptions {
  turns: TurnShare;
}

export function documentRouting(options: DocumentRouteOptions): DocumentRouting {
  return { ...options, turns: uploadTurns() };
}

/**
 * A document endpoint's parameters: the query string's (the first of each name; an empty one is absent) and the
 * path's, which win over a query parameter of the same name.
 */
export function documentParameters(c: Context): { query: Record<string, string>; fields: Record<string, string> } {
  const query = Object.fromEntries(Object.entries(c.req.query()).filter(([, value]) => value !== ''));
  return { query, fields: { ...query, ...(c.req.param() as Record<string, string>) } };
}

/**
 * The parameters checked by the endpoint's schema: a missing one answers 400 naming it, with an example URL (the
 * first missing one; path parameters are never missing, and each document endpoint requires one query parameter at
 * most).
 */
export function parseParameters<S extends z.ZodType>(
  schema: S,
  fields: Record<string, string>,
  path: string,
): z.infer<S> {
  const result = schema.safeParse(fields, { error: errorMessage });
  if (result.success) return result.data;
  const missing = result.error.issues.find((issue) => issue.code === 'invalid_type' && issue.input === undefined);
  if (!missing) throw validationError(result.error);
  const name = String(missing.path[0]);
  throw ApiError.badRequest(`Query parameter ${name} is required, e.g. ${path}?${name}=<KEY>&clientKey=<CLIENT_KEY>`, [
    { path: name, message: 'Required' },
  ]);
}

/** What a document endpoint's handler reads besides its input: the request's info, the upload, the adapters. */
export function documentRequest(c: Context, info: RequestInfo, routing: DocumentRouting): DocumentRequest {
  return {
    ...info,
    pdf: () => readPdfUpload(c, routing.maxUploadBytes, routing.turns),
    documents: routing.documents,
    renderer: routing.renderer,
  };
}

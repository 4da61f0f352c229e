/**
 * The types of every /api request and success answer with a JSON body (docs/library.md, "Types of the API"),
 * inferred from the zod schemas that validate the requests and describe the answers in the OpenAPI document: the one
 * declaration of each operation, so a team's client code type-checks against what the sandbox accepts and answers.
 * Envelope operations (`{data: {action, …}}`) by resource and action; the plain endpoints by name and method; the
 * document endpoints (upload_pdf, download_pdf, …) by operation id: their parameters, and the JSON answer of those
 * that answer JSON rather than a file.
 */
import type { z } from 'zod';
import type { documentTable } from './documents.js';
import type { plainResourceTable, resourceTable } from './index.js';

type Resources = typeof resourceTable;
type Endpoints = typeof plainResourceTable;
type Documents = typeof documentTable;

/** A resource whose body is `{data: {action, …}}` (`/api/<name>`): `token`, `client`, `contract`, `recipient`, … */
export type ApiResource = keyof Resources;

/**
 * An action of a resource, by its name in the sandbox's table: the `action` (or settings' `type`) a client sends, but
 * for the token's three (`createPlatformToken`, `createClientToken`, `revokeToken`; the first two both send `create`).
 */
export type ApiAction<R extends ApiResource> = keyof Resources[R]['actions'] & string;

type ActionOf<R extends ApiResource, A extends ApiAction<R>> = Resources[R]['actions'][A];

/** The JSON body a client sends to `POST /api/<resource>` for this action. */
export type ApiRequest<R extends ApiResource, A extends ApiAction<R>> =
  ActionOf<R, A> extends { schema: infer S extends z.ZodType } ? z.input<S> : never;

/** The JSON body of the action's success answer. */
export type ApiResponse<R extends ApiResource, A extends ApiAction<R>> =
  ActionOf<R, A> extends { response: infer S extends z.ZodType } ? z.output<S> : never;

/** An endpoint without the envelope (`/api/<name>`): `contract_event`, `contract_share_link`, `recipient_sign`, … */
export type ApiEndpoint = keyof Endpoints;

/** The methods an endpoint answers. */
export type ApiEndpointMethod<E extends ApiEndpoint> = Endpoints[E]['endpoints'][number]['method'];

type EndpointOf<E extends ApiEndpoint, M extends ApiEndpointMethod<E>> = Extract<
  Endpoints[E]['endpoints'][number],
  { method: M }
>;

/** What an endpoint reads: its query parameters and, for POST and PUT, its flat JSON body, as one object. */
export type ApiEndpointRequest<E extends ApiEndpoint, M extends ApiEndpointMethod<E>> =
  EndpointOf<E, M> extends { schema: infer S extends z.ZodType } ? z.input<S> : never;

/** The JSON body of the endpoint's success answer. */
export type ApiEndpointResponse<E extends ApiEndpoint, M extends ApiEndpointMethod<E>> =
  EndpointOf<E, M> extends { response: infer S extends z.ZodType } ? z.output<S> : never;

/** A document endpoint, by its operation id: `upload_pdf`, `download_pdf`, `download_docx`, `contract_pdf`, … */
export type ApiDocument = keyof Documents;

type DocumentOf<D extends ApiDocument> = Documents[D]['endpoints'][number];
type DocumentInput<D extends ApiDocument> =
  DocumentOf<D> extends { schema: infer S extends z.ZodType } ? z.input<S> : never;
/** The names of the parameters a document endpoint requires. */
type RequiredOf<T> = { [P in keyof T]-?: undefined extends T[P] ? never : P }[keyof T];

/** Its query (and path) parameters, as strings: the required ones required. An upload's file goes in field `pdf`. */
export type ApiDocumentParameters<D extends ApiDocument> = {
  [P in RequiredOf<DocumentInput<D>>]: string;
} & { [P in Exclude<keyof DocumentInput<D>, RequiredOf<DocumentInput<D>>>]?: string };

/** The JSON body of its success answer (`upload_pdf`, `contract_email_sign_pdf`); `never` for those answering a file. */
export type ApiDocumentResponse<D extends ApiDocument> =
  DocumentOf<D> extends { response: infer S extends z.ZodType } ? z.output<S> : never;

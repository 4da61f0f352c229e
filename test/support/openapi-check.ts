/**
 * Every /api answer a test receives through the test harness is checked against the OpenAPI document
 * (`openApiDocument()`, the body of GET /openapi.json): its status must be documented for the path and method,
 * and its JSON body must match that response's schema. Success schemas are closed, so a misspelt or undocumented
 * field fails whichever test received it.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { openApiDocument } from '../../src/openapi/document.js';

let compiled: { doc: any; ajv: Ajv2020; cache: Map<unknown, ValidateFunction> } | undefined;

function state() {
  if (!compiled) {
    const doc = openApiDocument();
    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    ajv.addSchema({ $id: 'openapi', components: doc.components }, 'openapi');
    compiled = { doc, ajv, cache: new Map() };
  }
  return compiled;
}

function validator(schema: unknown): ValidateFunction {
  const { ajv, cache } = state();
  let v = cache.get(schema);
  if (!v) {
    const text = JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/');
    v = ajv.compile(JSON.parse(text));
    cache.set(schema, v);
  }
  return v;
}

/**
 * Throws when the answer does not match the document: its status, its JSON body, and (given `headers`) the headers
 * the response declares required (`Retry-After` of a 429 or 503). Bodies that are not JSON are left to the tests.
 */
export function checkApiResponse(method: string, url: string, status: number, body: unknown, headers?: Headers): void {
  const path = new URL(url, 'http://sandbox').pathname;
  if (path !== '/api' && !path.startsWith('/api/')) return;
  if (typeof body !== 'object' || body === null) return;
  const { doc } = state();
  const operation = (doc.paths[path] ?? templatedPath(doc.paths, path))?.[method.toLowerCase()];
  // Unknown paths and methods answer the common error body.
  const response = operation
    ? (operation.responses[String(status)] ?? (status >= 400 ? operation.responses.default : undefined))
    : undefined;
  const schema = operation
    ? response?.content?.['application/json']?.schema
    : status === 404 || status === 405 || status >= 500 || status === 429
      ? doc.components.schemas.Error
      : undefined;
  if (!schema) throw new Error(`OpenAPI: ${method} ${path} answered ${status}, which the document does not list`);
  if (headers) checkHeaders(`${method} ${path} ${status}`, response?.headers ?? {}, headers);
  const validate = validator(schema);
  if (!validate(body)) {
    throw new Error(
      `OpenAPI: ${method} ${path} ${status} does not match the document: ${JSON.stringify(validate.errors?.slice(0, 5))}\nbody: ${JSON.stringify(body).slice(0, 500)}`,
    );
  }
}

/** The declared headers a response must carry, each a value its schema (a string or an integer) accepts. */
function checkHeaders(what: string, declared: Record<string, any>, headers: Headers): void {
  for (const [name, header] of Object.entries(declared)) {
    const value = headers.get(name);
    if (value === null) {
      if (header.required) throw new Error(`OpenAPI: ${what} has no ${name} header, which the document requires`);
      continue;
    }
    const { type, minimum } = header.schema ?? {};
    if (type === 'integer' && (!/^\d+$/.test(value) || (minimum !== undefined && Number(value) < minimum)))
      throw new Error(`OpenAPI: ${what} has ${name}: ${value}, not an integer of at least ${minimum ?? 0}`);
  }
}

/** The document's entry for a path with parameters (`/api/contract_pdf/{contractKey}`), if one matches. */
function templatedPath(paths: Record<string, any>, path: string): any {
  for (const [template, entry] of Object.entries(paths)) {
    if (!template.includes('{')) continue;
    if (new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`).test(path)) return entry;
  }
  return undefined;
}

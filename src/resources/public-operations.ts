/**
 * Which /api requests are for a public operation keyed by what it names: one that reads no credentials and acts in
 * the tenant of the key it names (a share link, or a platform token create's API key). The travel object files such a request under that
 * key's tenant, whatever credentials came with it (domain/request-facts.ts `bodyFacts`), so the journal, the API
 * faults, the request events and the operation itself agree on whose request it is (docs/library.md, "Whose request
 * it is").
 */
import { matchOperation } from './action.js';
import { documentResources } from './documents.js';
import { plainResources, resources } from './index.js';
import { operationValue } from '../core/operation.js';

/**
 * `METHOD path` of every public plain endpoint and document endpoint with a fixed path. The public document URLs
 * (`/api/contract_pdf/{contractKey}/{file}`) name no share link or API key, and their file is found whatever the
 * tenant: they are filed like any other request, under the tenant their credentials name, if any.
 */
const PUBLIC_PATHS = new Set(
  [...plainResources, ...documentResources]
    .filter((r) => !r.path.includes('{'))
    .flatMap((r) => r.endpoints.filter((e) => e.scope === 'public').map((e) => `${e.method} ${r.path}`)),
);

/** The envelope resources with public actions beside others: the body's operation tells (the token create). */
const MIXED = resources.filter((r) => Object.values(r.actions).some((a) => a.scope === 'public'));

/** Whether `method path` with this body (parsed JSON, or undefined) is for a public operation, as the router picks. */
export function isPublicOperation(method: string, path: string, body: unknown): boolean {
  if (PUBLIC_PATHS.has(`${method} ${path}`)) return true;
  const resource = method === 'POST' ? MIXED.find((r) => r.path === path) : undefined;
  if (!resource || body === null || typeof body !== 'object' || Array.isArray(body)) return false;
  try {
    const json = body as Record<string, unknown>;
    const name = resource.select
      ? resource.select(json)
      : matchOperation(resource, operationValue(json, resource.selector), resource.selector);
    return resource.actions[name]?.scope === 'public';
  } catch {
    // A body the router refuses before it asks for credentials: no operation, so no public one.
    return false;
  }
}

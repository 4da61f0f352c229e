/**
 * Where a tenant's control operations live: under `/__sandbox/platforms/{apiKey}`, the same path and body as the
 * sandbox's own (docs/library.md, "Parallel tests"). Spelled here once: the control routes and the OpenAPI document
 * mount and list them under `TENANT_PREFIX`, the control client calls `tenantPrefix(apiKey)`, and the travel object
 * of a request reads the tenant a path names with `tenantKeyOfPath` (domain/request-facts.ts).
 */

/** The prefix of a tenant's operations under /__sandbox, in OpenAPI form. */
export const TENANT_PREFIX = '/platforms/{apiKey}';

/** The prefix for one tenant: `/platforms/<apiKey>`, the key percent-encoded. */
export function tenantPrefix(apiKey: string): string {
  return TENANT_PREFIX.replace('{apiKey}', encodeURIComponent(apiKey));
}

const TENANT_PATH = /^\/__sandbox\/platforms\/([^/]+)\//;

/** The API key a request path names as its tenant (`/__sandbox/platforms/{apiKey}/…`), decoded; else undefined. */
export function tenantKeyOfPath(path: string): string | undefined {
  const segment = TENANT_PATH.exec(path)?.[1];
  if (segment === undefined) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

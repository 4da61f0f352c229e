/**
 * A scenario's `tenant:` key (docs/scenarios.md, "tenant"): the one tenant it plays for, wherever it is loaded from.
 * Without it, a scenario loaded for the whole sandbox plays for every tenant (docs/ci.md, "Scenarios and tenants").
 */
import type { Tenant } from '../control/control.js';
import { ApiError, quote } from '../core/errors.js';
import { apiKeyName } from '../core/schemas.js';

export const tenantKey = () =>
  apiKeyName().optional().meta({
    description:
      'The API key of the one tenant (platform) this scenario plays for, wherever it is loaded from (--scenario, a mounted folder, the control API); without it, a scenario loaded for the whole sandbox plays for every tenant (docs/scenarios.md).',
  });

/**
 * The tenant a scenario plays for: the one its `tenant:` key names, or the one it was loaded under (a scoped route,
 * `sandbox.tenant(apiKey)`); when both are given they must agree. `tenantOf` answers 404 for a key no platform has.
 */
export function boundTenant(
  scenario: { name: string; tenant?: string | undefined },
  scoped: Tenant | undefined,
  tenantOf: (apiKey: string) => Tenant,
): Tenant | undefined {
  const key = scenario.tenant;
  if (key === undefined) return scoped;
  if (scoped !== undefined && scoped.apiKey !== key)
    throw ApiError.badRequest(
      `Scenario ${scenario.name} is for the tenant ${quote(key)} (its tenant key), not this one: load it under that tenant or for the whole sandbox`,
      [{ path: 'tenant', message: 'Another tenant' }],
    );
  try {
    return tenantOf(key);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404) throw error;
    throw ApiError.notFound(
      `Scenario ${scenario.name} is for the tenant ${quote(key)} (its tenant key), and no platform has that API key yet: make it first (POST /__sandbox/platforms {"apiKey": ...}, a platform in --fixtures, or --api-key)`,
    );
  }
}

/**
 * Where a scenario's `data` goes (docs/scenarios.md, "data"), and the check, made before anything is written, that
 * its fixed keys are free there, so that a clash leaves the sandbox as it was.
 */
import type { Tenant } from '../control/control.js';
import { ApiError } from '../core/errors.js';
import type { PlatformRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import type { Scenario } from './schema.js';

/** The platform a scenario's data goes to: its tenant's (data.platform, if given, must name it), else data.platform's. */
export function dataPlatform(
  scenario: Scenario,
  tenant: Tenant | undefined,
  store: Store,
  defaultPlatform: () => PlatformRecord | undefined,
): PlatformRecord {
  const apiKey = scenario.data?.platform;
  if (tenant) {
    if (apiKey !== undefined && apiKey !== tenant.apiKey)
      throw ApiError.badRequest('data.platform: a scenario loaded for a tenant adds to that tenant only');
    return store.platforms.get(tenant.platformId)!;
  }
  const platform = apiKey !== undefined ? store.platforms.where('apiKey', apiKey)[0] : defaultPlatform();
  if (!platform) {
    throw ApiError.badRequest(
      apiKey !== undefined
        ? `data.platform: no platform with apiKey "${apiKey}"`
        : 'data: the sandbox has no platform to add to; name one with data.platform',
    );
  }
  return platform;
}

/** Fixed keys must be free before anything is written: a 409 naming the first that is taken. */
export function checkData(scenario: Scenario, platform: PlatformRecord, store: Store): void {
  const clash = (what: string, key: string | undefined, taken: boolean) => {
    if (key !== undefined && taken)
      throw ApiError.conflict(
        `Scenario ${scenario.name}: ${what} "${key}" already exists; pick another key or leave it out`,
      );
  };
  for (const c of scenario.data?.clients ?? []) {
    const existing = c.clientKey !== undefined ? store.clients.get(c.clientKey) : undefined;
    if (existing && existing.platformId !== platform.platformId) clash('clientKey', c.clientKey, true);
    for (const u of c.users ?? []) clash('userKey', u.userKey, u.userKey !== undefined && store.users.has(u.userKey));
    for (const t of c.templates ?? [])
      clash('templateKey', t.templateKey, t.templateKey !== undefined && store.templates.has(t.templateKey));
    for (const k of c.contracts ?? [])
      clash('contractKey', k.contractKey, k.contractKey !== undefined && store.contracts.has(k.contractKey));
  }
}

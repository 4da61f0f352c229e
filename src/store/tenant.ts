/**
 * Per-tenant reset: one platform's records go back to their seeded state while every other platform is left
 * alone, so test files sharing one sandbox can each reset their own tenant (POST /__sandbox/reset {"apiKey"}).
 */
import { ApiError } from '../core/errors.js';
import { COLLECTIONS, type StoreData } from './records.js';
import type { Store } from './store.js';

/** Collections whose records belong to a platform (everything but the platform record itself). */
const TENANT_COLLECTIONS = COLLECTIONS.filter((name) => name !== 'platforms');

/** Removes every record of the platform except the platform itself; answers how many went. */
export function deleteTenantRecords(store: Store, platformId: string): number {
  let removed = 0;
  for (const name of TENANT_COLLECTIONS) {
    const table = store[name] as unknown as {
      where(index: 'platform', platformId: string): { platformId: string }[];
      keyOf(record: { platformId: string }): string;
      delete(key: string): unknown;
    };
    for (const record of table.where('platform', platformId)) {
      table.delete(table.keyOf(record));
      removed++;
    }
  }
  return removed;
}

/**
 * Copies the seeded records of the platform that had the same API key into `platformId`. A platform that
 * was not in the fixtures (created with POST /__sandbox/platforms) has no seeded records and stays empty.
 */
export function restoreTenantRecords(store: Store, seed: StoreData, apiKey: string, platformId: string): number {
  const seeded = Object.values(seed.platforms).find((p) => p.apiKey === apiKey);
  if (!seeded) return 0;
  let restored = 0;
  for (const name of TENANT_COLLECTIONS) {
    const table = store[name] as unknown as {
      has(key: string): boolean;
      insert(record: object): unknown;
      get(key: string): { platformId: string } | undefined;
    };
    for (const [key, record] of Object.entries(seed[name] as Record<string, { platformId: string }>)) {
      if (record.platformId !== seeded.platformId) continue;
      const owner = table.get(key);
      if (owner && owner.platformId !== platformId) {
        throw ApiError.conflict(
          `Cannot restore the seeded ${name} record "${key}": another platform now holds that key`,
        );
      }
      if (owner) continue;
      table.insert({ ...structuredClone(record), platformId });
      restored++;
    }
  }
  return restored;
}

/**
 * What the scenario engine keeps across a restart (docs/persistence.md, "What is kept"): every active scenario as one
 * record (active.ts `kept()`), restored in load order, and the names a tenant's scenarios gave their data
 * (tenant-names.ts). Their timers are kept timers of their own (core/timers.ts, kind SCENARIO_TIMER).
 */
import type { Keeper, KeptState } from '../core/kept.js';
import type { ActiveScenario, KeptScenario } from './active.js';
import { TenantNames } from './tenant-names.js';

export interface KeptScenarios {
  /** The active scenarios, in load order. */
  active(): readonly ActiveScenario[];
  /** The kept ones back, in load order. */
  restore(scenarios: KeptScenario[]): void;
  /** Unloads every one (a whole new set is restored next). */
  clear(): void;
}

/** Registers the active scenarios as the kept collection `scenarios`; answers its keeper (keyed by `active.key`). */
export function keepScenarios(kept: KeptState, engine: KeptScenarios): Keeper {
  const restoring: KeptScenario[] = [];
  return kept.keep('scenarios', {
    record: (key) =>
      engine
        .active()
        .find((a) => a.key === key)
        ?.kept(),
    keys: () => engine.active().map((a) => a.key),
    restore: (_key, record) => restoring.push(record as KeptScenario),
    restored: () => engine.restore(restoring.splice(0).sort((a, b) => a.loadSeq - b.loadSeq)),
    clear: () => engine.clear(),
  });
}

/** The tenants' scenario names, kept as the collection `scenario-names` (one record per tenant). */
export function keptTenantNames(kept: KeptState): TenantNames {
  const names: TenantNames = new TenantNames((platformId) => keeper.changed(platformId));
  const keeper = kept.keep('scenario-names', {
    record: (platformId) => names.of(platformId),
    keys: () => names.tenants(),
    restore: (platformId, record) => names.restore(platformId, record as [string, string][]),
    clear: () => names.forget(),
  });
  return names;
}

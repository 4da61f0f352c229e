/**
 * The names a tenant's scenarios give the records their data makes (docs/scenarios.md, "`data`"). In a scenario
 * loaded for a tenant, a fixed key (`clientKey: demoClient`) is a name within the tenant: the record is made under
 * that key when no other tenant has it, else under a fresh one, and the tenant keeps the name. Every mention of the
 * name in the tenant's scenarios (a step's `client:`, a match, a fault's `clientKey`, a contract's key) then means
 * that record, so each bundled scenario loads into any number of tenants, its data made inside each.
 */
import { z } from 'zod';
import type { IdSource } from '../core/ids.js';
import type { Store } from '../store/store.js';
import type { Scenario } from './schema.js';

export const NAME_KINDS = ['client', 'user', 'template', 'contract'] as const;
type NameKind = (typeof NAME_KINDS)[number];

/** One name a tenant's scenario gave a record whose key another tenant had: the shape a data file would keep. */
export const tenantNameSchema = z.object({
  platformId: z.string().min(1),
  kind: z.enum(NAME_KINDS),
  /** The key as the scenario writes it. */
  name: z.string().min(1),
  /** The record's key in the store. */
  key: z.string().min(1),
});
export type TenantName = z.infer<typeof tenantNameSchema>;

/** Which fields of a scenario hold a key of which kind (the data's keys, steps, matches, triggers, faults). */
const FIELD_KINDS: Record<string, NameKind> = {
  clientKey: 'client',
  client: 'client',
  userKey: 'user',
  templateKey: 'template',
  contractKey: 'contract',
  contract: 'contract',
  key: 'contract',
};

type Names = Map<string, string>;
const at = (kind: NameKind, name: string) => `${kind}:${name}`;

export class TenantNames {
  /** platformId → `kind:name` → key. */
  private readonly byTenant = new Map<string, Names>();

  /** `changed`: a tenant's names changed (they are kept: docs/persistence.md, "What is kept"). */
  constructor(private readonly changed: (platformId: string) => void = () => {}) {}

  /** The tenants that keep names. */
  tenants(): string[] {
    return [...this.byTenant.keys()];
  }

  /** One tenant's names as kept: `[kind:name, key]` pairs; undefined when it has none. */
  of(platformId: string): [string, string][] | undefined {
    const names = this.byTenant.get(platformId);
    return names && [...names];
  }

  /** A tenant's kept names back. */
  restore(platformId: string, names: [string, string][]): void {
    this.byTenant.set(platformId, new Map(names));
  }

  /**
   * The scenario as it reads in this tenant: each fixed key of its data that another tenant has gets a fresh key
   * (a name kept from now on), and every mention of a name the tenant keeps is its key.
   */
  resolve(
    scenario: Scenario,
    platformId: string,
    store: Store,
    ids: IdSource,
  ): { scenario: Scenario; notes: string[] } {
    const names = this.byTenant.get(platformId) ?? new Map<string, string>();
    const tables = { client: store.clients, user: store.users, template: store.templates, contract: store.contracts };
    const notes: string[] = [];
    const claim = (kind: NameKind, name: string | undefined) => {
      if (name === undefined) return;
      const kept = names.get(at(kind, name));
      const owner = tables[kind].get(name)?.platformId;
      if (kept !== undefined && tables[kind].get(kept)?.platformId === platformId) {
        // Made by an earlier load of this tenant: the same record again.
      } else if (owner === undefined || owner === platformId) {
        names.delete(at(kind, name));
        return;
      } else names.set(at(kind, name), ids.key());
      notes.push(
        `data: ${kind}Key ${name} is ${names.get(at(kind, name))} in this tenant (another tenant has ${name})`,
      );
    };
    for (const c of scenario.data?.clients ?? []) {
      claim('client', c.clientKey);
      for (const u of c.users ?? []) claim('user', u.userKey);
      for (const t of c.templates ?? []) claim('template', t.templateKey);
      for (const k of c.contracts ?? []) claim('contract', k.contractKey);
    }
    if (names.size === 0) return { scenario, notes };
    this.byTenant.set(platformId, names);
    this.changed(platformId);
    return { scenario: rename(scenario, '', names) as Scenario, notes };
  }

  /** A tenant reset or a full one: the records are gone, and the names with them. */
  forget(platformId?: string): void {
    for (const tenant of platformId === undefined ? this.tenants() : [platformId]) {
      if (this.byTenant.delete(tenant)) this.changed(tenant);
    }
  }

  /** Every name kept, as a data file would hold them. */
  entries(): TenantName[] {
    return [...this.byTenant].flatMap(([platformId, names]) =>
      [...names].map(([where, key]) => {
        const [kind, ...name] = where.split(':');
        return { platformId, kind: kind as NameKind, name: name.join(':'), key };
      }),
    );
  }
}

/** `value` with every string under a key field that is a kept name replaced by its key. */
function rename(value: unknown, field: string, names: Names): unknown {
  if (typeof value === 'string') {
    const kind = FIELD_KINDS[field];
    return kind !== undefined ? (names.get(at(kind, value)) ?? value) : value;
  }
  if (Array.isArray(value)) return value.map((item) => rename(item, field, names));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rename(v, k, names)]));
  return value;
}

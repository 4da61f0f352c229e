/**
 * Filling placeholders (contract and template "create and fill", contract update). What the filled contract shows
 * is shown-contract.ts.
 */
import { ApiError, quote } from '../core/errors.js';
import type { OpContext } from './context.js';
import type { ClientRecord, PlaceholderRecord } from '../store/records.js';
import { type Owner, addPlaceholder, placeholdersOf } from './placeholders.js';

export interface TableValue {
  columns: string[];
  rows: unknown[][];
}

/** One item of `placeholders[]`: a placeholder named by key or name, and its value (text or table [E]). */
export interface FillItem {
  placeholderKey?: string | undefined;
  name?: string | undefined;
  value?: string | undefined;
  table?: TableValue | undefined;
}

/**
 * Fills placeholders of `owner`. An item names a placeholder by key (404 when the owner has none such; a key of the
 * template the owner was made from finds its copy through `aliases`) or by name (a new placeholder when none has that
 * name, so a contract made from HTML content can be filled in one call). Every item is checked before any is written.
 */
export function fillPlaceholders(
  ctx: OpContext,
  owner: Owner,
  client: ClientRecord,
  items: readonly FillItem[],
  path: string,
  aliases: ReadonlyMap<string, string> = new Map(),
): void {
  const existing = placeholdersOf(ctx, owner);
  const targets = items.map((item, i): PlaceholderRecord | undefined => {
    if (item.placeholderKey !== undefined) {
      const key = aliases.get(item.placeholderKey) ?? item.placeholderKey;
      const found = existing.find((p) => p.placeholderKey === key && !p.isSpecial);
      if (!found) {
        throw ApiError.notFound(`Placeholder ${quote(item.placeholderKey)} not found (${path}.${i}.placeholderKey)`);
      }
      return found;
    }
    return existing.find((p) => p.name === item.name && !p.isSpecial);
  });
  const now = ctx.clock.now();
  items.forEach((item, i) => {
    const value = item.table !== undefined ? JSON.stringify(item.table) : (item.value ?? '');
    const table = item.table !== undefined ? { isTable: true } : {};
    const target = targets[i];
    if (target) ctx.store.placeholders.update(target.placeholderKey, { value, ...table, changeTime: now });
    else {
      const added = addPlaceholder(ctx, owner, client, { name: item.name!, value });
      if (item.table !== undefined) ctx.store.placeholders.update(added.placeholderKey, table);
    }
  });
}

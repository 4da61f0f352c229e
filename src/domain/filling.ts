/**
 * Filling placeholders (contract and template "create and fill", contract update) and the filled HTML that
 * `returnValue: true` answers as `contractValue`.
 *
 * The HTML of a contract names its placeholders with tags carrying the placeholder's `id`: `<placeholderN>` for an
 * ordinary one, and `<dateN>`, `<fullnameN>`, `<emailN>`, `<signN>` for a recipient's special ones
 * [D:placeholder/pdfspecial]. No source shows the ordinary tag; `placeholderN` follows the special ones' pattern.
 */
import { ApiError, quote } from '../core/errors.js';
import type { OpContext } from './context.js';
import type { ClientRecord, PlaceholderRecord } from '../store/records.js';
import { type Owner, addPlaceholder, placeholdersOf } from './placeholders.js';
import { escapeHtml, tagOf } from './placeholder-tags.js';
import { SPECIAL, specialTypeOf } from '../core/vocabulary.js';

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

/** The HTML with every placeholder tag that has a value filled in (values escaped; signatures as images). */
export function filledHtml(html: string, placeholders: readonly PlaceholderRecord[]): string {
  let out = html;
  for (const p of placeholders) {
    if (p.value === '') continue;
    const tag = tagOf(p);
    const content =
      specialTypeOf(p) === SPECIAL.signature && p.value.startsWith('data:image/')
        ? `<img src="${escapeHtml(p.value)}" alt="signature">`
        : renderValue(p);
    const element = new RegExp(`<${tag}(\\s[^>]*)?>[\\s\\S]*?</${tag}>|<${tag}(\\s[^>]*)?/?>`, 'gi');
    out = out.replace(
      element,
      (_m, a1: string | undefined, a2: string | undefined) => `<${tag}${a1 ?? a2 ?? ''}>${content}</${tag}>`,
    );
  }
  return out;
}

function renderValue(p: PlaceholderRecord): string {
  if (!p.isTable) return escapeHtml(p.value);
  let table: TableValue;
  try {
    table = JSON.parse(p.value) as TableValue;
  } catch {
    return escapeHtml(p.value);
  }
  const head = table.columns.map((c) => `<th>${escapeHtml(String(c))}</th>`).join('');
  const rows = table.rows
    .map((r) => `<tr>${r.map((v) => `<td>${escapeHtml(String(v ?? ''))}</td>`).join('')}</tr>`)
    .join('');
  return `<table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
}

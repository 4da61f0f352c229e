/**
 * Placeholders of contracts and templates. Every recipient gets four special placeholders, keyed
 * `<recipientKey>_<code>` (docs/compatibility.md, "Keys"): 1 date signed, 2 full name, 3 email, 4 signature (vocabulary.ts).
 */
import { ApiError, quote } from '../core/errors.js';
import type { OpContext } from './context.js';
import type {
  ClientRecord,
  ContractRecord,
  InsertionRecord,
  PlaceholderRecord,
  RecipientRecord,
} from '../store/records.js';
import type { FieldError } from '../core/errors.js';
import { placementErrors } from './pdf-contracts.js';
import {
  PLACEHOLDER_BOX_CODES,
  RECIPIENT_SPECIAL_TYPES,
  type RecipientSpecialType,
  SPECIAL,
  SPECIAL_TYPES,
  specialKey,
  contractTypeOf,
} from '../core/vocabulary.js';

export type Owner = { contractKey: string } | { templateKey: string };

function ownerIndex(owner: Owner): ['contract' | 'template', string] {
  return 'contractKey' in owner ? ['contract', owner.contractKey] : ['template', owner.templateKey];
}

export function placeholdersOf(ctx: OpContext, owner: Owner): PlaceholderRecord[] {
  const [index, key] = ownerIndex(owner);
  return ctx.store.placeholders.where(index, key);
}

/** Takes the next ordinal from the owning contract or template. */
function nextPosition(ctx: OpContext, owner: Owner): number {
  if ('contractKey' in owner) {
    const contract = ctx.store.contracts.get(owner.contractKey)!;
    ctx.store.contracts.update(contract.contractKey, { nextPlaceholderPosition: contract.nextPlaceholderPosition + 1 });
    return contract.nextPlaceholderPosition - 1;
  }
  const template = ctx.store.templates.get(owner.templateKey)!;
  ctx.store.templates.update(template.templateKey, { nextPlaceholderPosition: template.nextPlaceholderPosition + 1 });
  return template.nextPlaceholderPosition - 1;
}

export function addPlaceholder(
  ctx: OpContext,
  owner: Owner,
  client: ClientRecord,
  fields: {
    name: string;
    value: string;
    key?: string;
    special?: { type: RecipientSpecialType; recipientKey: string };
    position?: number;
    /** PlaceholderType [C:enum.ts]: '1' internal (default), '2' external. */
    type?: '1' | '2';
    fillingType?: string | undefined;
    externalRecipientKey?: string | undefined;
  },
): PlaceholderRecord {
  const now = ctx.clock.now();
  const position = fields.position ?? nextPosition(ctx, owner);
  return ctx.store.placeholders.insert({
    placeholderKey: fields.key ?? ctx.ids.key(),
    ...owner,
    clientKey: client.clientKey,
    platformId: client.platformId,
    id: String(position),
    name: fields.name,
    value: fields.value,
    // PlaceholderType [C:enum.ts]: '1' internal, '2' external; a recipient fills its special ones.
    type: fields.special ? '2' : (fields.type ?? '1'),
    ...(fields.fillingType !== undefined ? { fillingType: fields.fillingType } : {}),
    ...(fields.externalRecipientKey !== undefined ? { externalRecipientKey: fields.externalRecipientKey } : {}),
    position,
    isSpecial: fields.special !== undefined,
    ...(fields.special ? { specialType: fields.special.type, recipientKey: fields.special.recipientKey } : {}),
    insertion: [],
    createTime: now,
    changeTime: now,
  });
}

/**
 * A recipient's four special placeholders share one `id`, the N of the HTML tags `<signN>`, `<dateN>`,
 * `<fullnameN>`, `<emailN>` [D:placeholder/pdfspecial], [E].
 */
export function addSpecialPlaceholders(
  ctx: OpContext,
  contract: ContractRecord,
  client: ClientRecord,
  recipient: RecipientRecord,
): void {
  const position = nextPosition(ctx, { contractKey: contract.contractKey });
  for (const code of RECIPIENT_SPECIAL_TYPES) {
    addPlaceholder(ctx, { contractKey: contract.contractKey }, client, {
      position,
      key: specialKey(recipient.recipientKey, code),
      name: SPECIAL_TYPES[code],
      value: '',
      special: { type: code, recipientKey: recipient.recipientKey },
    });
  }
}

export function deleteSpecialPlaceholders(ctx: OpContext, recipientKey: string): void {
  for (const code of RECIPIENT_SPECIAL_TYPES) ctx.store.placeholders.delete(specialKey(recipientKey, code));
}

/**
 * Copies the ordinary placeholders of one owner to another with their values cleared (template convert,
 * duplicate, and contract-from-template). Special placeholders belong to recipients, so they stay behind.
 */
export function copyPlaceholders(
  ctx: OpContext,
  from: Owner,
  to: Owner,
  client: ClientRecord,
  options: { keepValues?: boolean } = {},
): Map<string, string> {
  // Old key to new key: "create and fill" from a template names the template's placeholders.
  const keys = new Map<string, string>();
  for (const p of placeholdersOf(ctx, from)) {
    if (p.isSpecial) continue;
    const copy = addPlaceholder(ctx, to, client, { name: p.name, value: options.keepValues ? p.value : '' });
    const extra = {
      ...(p.isTable ? { isTable: true } : {}),
      ...(p.fillingType !== undefined ? { fillingType: p.fillingType } : {}),
    };
    if (Object.keys(extra).length > 0) ctx.store.placeholders.update(copy.placeholderKey, extra);
    keys.set(p.placeholderKey, copy.placeholderKey);
  }
  return keys;
}

/** A placeholder of this contract or template, or 404 (keys of other owners answer as if they did not exist). */
export function findPlaceholder(ctx: OpContext, owner: Owner, placeholderKey: string): PlaceholderRecord {
  const p = ctx.store.placeholders.get(placeholderKey);
  const [, key] = ownerIndex(owner);
  if (!p || ('contractKey' in owner ? p.contractKey : p.templateKey) !== key)
    throw ApiError.notFound(`Placeholder ${quote(placeholderKey)} not found`);
  return p;
}

/** The recipient named to fill a placeholder (fillingType 4) must be a recipient of its contract (404 otherwise). */
export function checkFiller(ctx: OpContext, owner: Owner, recipientKey: string): void {
  const r = ctx.store.recipients.get(recipientKey);
  if (!r || !('contractKey' in owner) || r.contractKey !== owner.contractKey)
    throw ApiError.notFound(`Recipient ${quote(recipientKey)} not found`);
}

export interface PlaceholderChange {
  name?: string | undefined;
  value?: string | undefined;
  fillingType?: string | undefined;
  /** The recipient who fills it (fillingType 4); `null` clears it. */
  externalRecipientKey?: string | null | undefined;
  table?: { columns: string[]; rows: unknown[][] } | undefined;
}

/**
 * Ordinary and table `update` [D:placeholder/update], [D:placeholder/update-table]. Special placeholders get their
 * values from signing, so only their placements change (placePlaceholders). A table value is kept as its JSON.
 */
export function updatePlaceholder(ctx: OpContext, p: PlaceholderRecord, change: PlaceholderChange): PlaceholderRecord {
  if (p.isSpecial) {
    throw ApiError.conflict(
      `Placeholder ${p.placeholderKey} is a recipient's special placeholder; its value comes from signing`,
    );
  }
  if (change.externalRecipientKey)
    checkFiller(
      ctx,
      p.contractKey !== undefined ? { contractKey: p.contractKey } : { templateKey: p.templateKey! },
      change.externalRecipientKey,
    );
  const patch: Partial<PlaceholderRecord> = { changeTime: ctx.clock.now() };
  if (change.name !== undefined) patch.name = change.name;
  if (change.value !== undefined) patch.value = change.value;
  if (change.fillingType !== undefined) patch.fillingType = change.fillingType;
  if (change.externalRecipientKey) patch.externalRecipientKey = change.externalRecipientKey;
  if (change.table !== undefined) {
    patch.value = JSON.stringify(change.table);
    patch.isTable = true;
  }
  const updated = ctx.store.placeholders.update(p.placeholderKey, patch);
  if (change.externalRecipientKey === null || change.externalRecipientKey === '') {
    const { externalRecipientKey: _gone, ...rest } = updated;
    ctx.store.placeholders.delete(p.placeholderKey);
    return ctx.store.placeholders.insert(rest);
  }
  return updated;
}

/** Placeholder `delete` [C:placeholder-html-block.tsx], [E]: ordinary ones only; special ones go with their recipient. */
export function deletePlaceholder(ctx: OpContext, p: PlaceholderRecord): void {
  if (p.isSpecial) {
    throw ApiError.conflict(
      `Placeholder ${p.placeholderKey} is a recipient's special placeholder; it goes when the recipient is deleted`,
    );
  }
  ctx.store.placeholders.delete(p.placeholderKey);
}

/** Where one placeholder goes: insertion items added, or updated when their `id` exists. */
export interface Placement {
  placeholderKey: string;
  /** A recipient's special placeholder (its `specialType` must match), or else an ordinary one. */
  isSpecial?: boolean | undefined;
  specialType?: number | undefined;
  insertion?: Partial<InsertionRecord>[] | undefined;
}

/**
 * Places placeholders (insertions in a PDF contract): special ones (`isSpecial: true`, with their `specialType`) or
 * ordinary ones (the pdfbasic placement). Every item is checked before any is written, so a bad item leaves the
 * contract unchanged. `path` names the list in error messages. Returns the last one placed.
 */
export function placePlaceholders(
  ctx: OpContext,
  contract: ContractRecord,
  items: Placement[],
  path: string,
): PlaceholderRecord {
  const targets = items.map((item, i) => {
    const p = ctx.store.placeholders.get(item.placeholderKey);
    const special = item.isSpecial === true;
    if (!p || p.contractKey !== contract.contractKey || p.isSpecial !== special) {
      throw ApiError.notFound(
        special
          ? `Placeholder ${quote(item.placeholderKey)} not found; special placeholders are <recipientKey>_<1..4> of a recipient of this contract`
          : `Placeholder ${quote(item.placeholderKey)} not found among this contract's ordinary placeholders (special ones need isSpecial: true and their specialType)`,
      );
    }
    if (special && p.specialType !== item.specialType) {
      throw ApiError.badRequest(
        `specialType ${item.specialType} does not match placeholder ${p.placeholderKey} (type ${p.specialType})`,
        [{ path: `${path}.${i}.specialType`, message: `Must be ${p.specialType}` }],
      );
    }
    return p;
  });
  if (contractTypeOf(contract) === 'pdf') checkPdfPlacements(contract, items, targets, path);
  const now = ctx.clock.now();
  let last = targets[0]!;
  items.forEach((item, i) => {
    const p = targets[i]!;
    const insertions: InsertionRecord[] = p.insertion.map((x) => ({ ...x }));
    for (const raw of item.insertion ?? []) {
      const fields = Object.fromEntries(
        Object.entries(raw).filter(([, v]) => v !== undefined),
      ) as Partial<InsertionRecord>;
      // `action: "delete"` removes a placement [C:pdf-page.tsx]; an id that is not placed is already gone.
      if (fields.action === 'delete') {
        const at = insertions.findIndex((x) => x.id === fields.id);
        if (at >= 0) insertions.splice(at, 1);
        continue;
      }
      const existing = fields.id !== undefined ? insertions.find((x) => x.id === fields.id) : undefined;
      if (existing) Object.assign(existing, fields);
      else insertions.push({ ...fields, id: fields.id ?? nextInsertionId(insertions) });
    }
    last = ctx.store.placeholders.update(p.placeholderKey, { insertion: insertions, changeTime: now });
  });
  return last;
}

function nextInsertionId(insertions: InsertionRecord[]): string {
  const numeric = insertions.map((x) => Number(x.id)).filter(Number.isFinite);
  return String((numeric.length ? Math.max(...numeric) : 0) + 1);
}

/**
 * On a PDF contract every placement must land on a page of the uploaded file (docs/documents.md): checked on the
 * placement as it will be stored (an update by `id` merged with the placement it changes), before anything is
 * written. Items that remove a placement (`action: "delete"`) need no box. `targets[i]` is the placeholder that
 * `items[i]` places (special or ordinary: the pdfbasic placement takes the same check).
 */
export function checkPdfPlacements(
  contract: ContractRecord,
  items: { insertion?: Partial<InsertionRecord>[] | undefined }[],
  targets: PlaceholderRecord[],
  path: string,
): void {
  const document = contract.document;
  if (!document) {
    throw ApiError.conflict(
      `Contract ${contract.contractKey} has no PDF yet; upload it with POST /api/upload_pdf before placing fields on it`,
    );
  }
  const errors: FieldError[] = [];
  items.forEach((item, i) => {
    const current = targets[i]!.insertion;
    (item.insertion ?? []).forEach((raw, j) => {
      if (raw.action === 'delete') return;
      const fields = Object.fromEntries(
        Object.entries(raw).filter(([, v]) => v !== undefined),
      ) as Partial<InsertionRecord>;
      const existing = fields.id !== undefined ? current.find((x) => x.id === fields.id) : undefined;
      errors.push(...placementErrors(document, { ...existing, ...fields }, `${path}.${i}.insertion.${j}`));
    });
  });
  if (errors.length) {
    throw ApiError.badRequest(
      `Placement does not fit the contract's PDF: ${errors[0]!.path}: ${errors[0]!.message}`,
      errors,
    );
  }
}

/**
 * The colour the components paint a placeholder with (docs/compatibility.md, "Placeholder"): the colour of the
 * recipient who fills it (a special placeholder's recipient, or `externalRecipientKey`), by the recipient's
 * number inside its contract; the components' owner colour for fields the creator fills (fillingType 2); their
 * "other" colour for the rest.
 */
export function placeholderColour(ctx: OpContext, p: PlaceholderRecord): string {
  const recipientKey = p.recipientKey ?? p.externalRecipientKey;
  const recipient = recipientKey ? ctx.store.recipients.get(recipientKey) : undefined;
  if (recipient) return RECIPIENT_COLOURS[Math.max(0, recipient.id - 1) % RECIPIENT_COLOURS.length]!;
  return p.fillingType === '2' ? OWNER_COLOUR : OTHER_COLOUR;
}

/** The components' PlaceholderColor: OTHER and OWNER, and the recipient colours they once listed. */
const OTHER_COLOUR = '#fafafa';
const OWNER_COLOUR = '#eaeaea';
const RECIPIENT_COLOURS = ['#8ae2f4', '#f59600', '#e5befc', '#ffe175', '#51d474'] as const;

/** A placeholder's `view` as the real clients read it (docs/compatibility.md): 2 for a signature box (special type 4). */
export function placeholderBoxCode(p: Pick<PlaceholderRecord, 'isSpecial' | 'specialType'>): 1 | 2 {
  return p.isSpecial && p.specialType === SPECIAL.signature
    ? PLACEHOLDER_BOX_CODES.signature
    : PLACEHOLDER_BOX_CODES.other;
}

/** Contract records: lookup with tenant isolation, creation, history. */
import type { OpContext } from './context.js';
import { emitContractEvent } from './context.js';
import { ApiError } from '../core/errors.js';
import { isoTime } from '../core/time-format.js';
import { HISTORY, type HistoryEvent, STATUS } from '../core/vocabulary.js';
import type { ClientRecord, ContractRecord, HistoryEntry } from '../store/records.js';
import { copyPlaceholders } from './placeholders.js';
import { documentFields } from './pdf-contracts.js';
import { type FillItem, fillPlaceholders } from './filling.js';
import { filledHtml, shownTags } from './shown-contract.js';
import { findTemplate } from './templates.js';

/** A contract of this client, or 404: keys of other clients answer as if they did not exist. */
export function findContract(ctx: OpContext, client: ClientRecord, contractKey: string): ContractRecord {
  const contract = ctx.store.contracts.get(contractKey);
  if (!contract || contract.clientKey !== client.clientKey) throw ApiError.notFound('Contract not found');
  return contract;
}

export function assertOpen(contract: ContractRecord, what: string): void {
  if (contract.status === STATUS.archived) throw ApiError.conflict(`Contract is archived; it cannot ${what}`);
}

/** A history entry as it is written: its event one of the vocabulary's (`HISTORY`); the time and cause are added. */
export type NewHistoryEntry = Omit<HistoryEntry, 'at' | 'cause' | 'event'> & { event: HistoryEvent };

/** Appends to the contract's history and bumps changeTime, in one store write. */
export function recordHistory(
  ctx: OpContext,
  contract: ContractRecord,
  entry: NewHistoryEntry,
  patch: Partial<ContractRecord> = {},
): void {
  const at = ctx.clock.now();
  const history = [...contract.history, { at, cause: ctx.cause, ...entry }];
  ctx.store.contracts.update(contract.contractKey, { ...patch, history, changeTime: at });
}

export interface NewContract {
  /** A fixed key (fixtures and scenarios); generated when absent. */
  contractKey?: string | undefined;
  name: string;
  value?: string | undefined;
  templateKey?: string | undefined;
  /** `pdf`: no content yet, the file comes with POST /api/upload_pdf; `html` (the default), `docx`, `empty`, `ai` as the real clients send them. From a template, the template's. */
  contractType?: string | undefined;
  userKey: string;
  /** "Create and fill": values for the new contract's placeholders (by key, or by name). */
  placeholders?: readonly FillItem[] | undefined;
}

export function createContract(ctx: OpContext, client: ClientRecord, input: NewContract): ContractRecord {
  const now = ctx.clock.now();
  let value = input.value ?? '';
  const template = input.templateKey !== undefined ? ctx.store.templates.get(input.templateKey) : undefined;
  if (input.templateKey !== undefined) {
    if (!template || template.clientKey !== client.clientKey) throw ApiError.notFound('Template not found');
    value = template.value;
  }
  const contractKey = input.contractKey ?? ctx.ids.key();
  // A PDF template's contracts are PDF contracts with its file; a PDF contract made from scratch waits for its upload.
  const pdf = template
    ? documentFields(template, { contractKey })
    : input.contractType === 'pdf'
      ? { contractType: 'pdf' as const, value: '' }
      : {};
  const contract = ctx.store.contracts.insert({
    contractKey,
    clientKey: client.clientKey,
    platformId: client.platformId,
    userKey: input.userKey,
    name: input.name,
    value,
    ...(template ? { templateKey: template.templateKey } : {}),
    ...(input.contractType !== undefined && input.contractType !== 'pdf' ? { contractType: input.contractType } : {}),
    ...pdf,
    status: STATUS.created,
    nextRecipientId: 1,
    nextPlaceholderPosition: 1,
    createTime: now,
    changeTime: now,
    history: [{ at: now, event: HISTORY.created, status: STATUS.created, cause: ctx.cause }],
  });
  const aliases = template
    ? copyPlaceholders(ctx, { templateKey: template.templateKey }, { contractKey: contract.contractKey }, client)
    : undefined;
  if (input.placeholders?.length)
    fillPlaceholders(
      ctx,
      { contractKey: contract.contractKey },
      client,
      input.placeholders,
      'data.placeholders',
      aliases,
    );
  emitContractEvent(ctx, 'contract.created', client.platformId, contractEventData(contract));
  return ctx.store.contracts.get(contract.contractKey)!;
}

/**
 * What every contract event carries (docs/compatibility.md: the payload is reported to include the contract's name,
 * status and createTime), plus the acting recipient's key, email and full name when a recipient acted.
 */
export function contractEventData(
  contract: ContractRecord,
  status = contract.status,
  recipient?: { recipientKey: string; email?: string | undefined; fullname?: string | undefined },
) {
  return {
    contractKey: contract.contractKey,
    clientKey: contract.clientKey,
    name: contract.name,
    status,
    createTime: isoTime(contract.createTime),
    ...(recipient
      ? { recipientKey: recipient.recipientKey, email: recipient.email ?? '', fullname: recipient.fullname ?? '' }
      : {}),
  };
}

export interface ContractChange {
  name?: string | undefined;
  value?: string | undefined;
  templateKey?: string | undefined;
  contractType?: string | undefined;
  placeholders?: readonly FillItem[] | undefined;
}

/**
 * Contract `update`: rename, new content (value, or a template's content and placeholders), contract type, placeholder
 * values [D:contract/update], [C:contract-editor.tsx]. An archived contract takes none (409). The content of a signed
 * contract is fixed (409); renaming and filling stay open.
 */
export function updateContract(
  ctx: OpContext,
  client: ClientRecord,
  contract: ContractRecord,
  change: ContractChange,
): ContractRecord {
  assertOpen(contract, 'be updated');
  const content = change.value !== undefined || change.templateKey !== undefined || change.contractType !== undefined;
  // The components' editor stays writable until the first signature, and recipients learn of a change through
  // check_contract_changed (docs/compatibility.md, "Contract"): content is fixed once someone signed.
  if (content && ctx.store.recipients.where('contract', contract.contractKey).some((r) => r.state === 'signed')) {
    throw ApiError.conflict(`Contract has been signed (status ${contract.status}); its content can no longer change`);
  }
  const template = change.templateKey !== undefined ? findTemplate(ctx, client, change.templateKey) : undefined;
  const patch: Partial<ContractRecord> = {};
  if (change.name !== undefined) patch.name = change.name;
  if (change.value !== undefined) patch.value = change.value;
  if (change.contractType !== undefined) patch.contractType = change.contractType;
  if (template) {
    patch.value = template.value;
    patch.templateKey = template.templateKey;
  }
  const changed = Object.keys(patch).concat(change.placeholders?.length ? ['placeholders'] : []);
  recordHistory(ctx, contract, { event: HISTORY.updated, status: contract.status, detail: { changed } }, patch);
  const owner = { contractKey: contract.contractKey };
  const aliases = template ? copyPlaceholders(ctx, { templateKey: template.templateKey }, owner, client) : undefined;
  if (change.placeholders?.length)
    fillPlaceholders(ctx, owner, client, change.placeholders, 'data.placeholders', aliases);
  return ctx.store.contracts.get(contract.contractKey)!;
}

/**
 * Contract `duplicate` [C:contract-list.tsx]: a new contract in `Created` with the same name, content, type and
 * ordinary placeholders (values kept: a copy, unlike template duplicate); recipients and history stay behind.
 */
export function duplicateContract(
  ctx: OpContext,
  client: ClientRecord,
  source: ContractRecord,
  userKey: string,
): ContractRecord {
  const copy = createContract(ctx, client, {
    name: source.name,
    value: source.value,
    contractType: source.contractType,
    userKey,
  });
  if (source.templateKey !== undefined)
    ctx.store.contracts.update(copy.contractKey, { templateKey: source.templateKey });
  // A PDF contract's copy shares its uploaded file (files are kept by their hash) under a path of its own.
  const pdf = documentFields(source, { contractKey: copy.contractKey });
  if (pdf.document) ctx.store.contracts.update(copy.contractKey, pdf);
  copyPlaceholders(ctx, { contractKey: source.contractKey }, { contractKey: copy.contractKey }, client, {
    keepValues: true,
  });
  return ctx.store.contracts.get(copy.contractKey)!;
}

/** The contract's HTML with its placeholders filled (`returnValue: true` → `contractValue`; shown-contract.ts). */
export function contractValue(ctx: OpContext, contract: ContractRecord): string {
  return filledHtml(contract.value, shownTags(ctx, contract.contractKey));
}

export function archiveContract(ctx: OpContext, contract: ContractRecord): ContractRecord {
  if (contract.status === STATUS.archived) throw ApiError.conflict('Contract is already archived');
  recordHistory(
    ctx,
    contract,
    { event: HISTORY.archived, status: STATUS.archived, detail: { previousStatus: contract.status } },
    { status: STATUS.archived },
  );
  ctx.bus.emit({
    type: 'contract.archived',
    platformId: contract.platformId,
    contractKey: contract.contractKey,
    clientKey: contract.clientKey,
    cause: ctx.cause,
  });
  return contract;
}

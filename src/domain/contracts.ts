/** Contract records: lookup with tenant isolation, creation, history. */
import type { OpContext } from './context.js';
import { emitContractEvent } from './context.js';
import { ApiError } from '../core/errors.js';
import type { ClientRecord, ContractRecord, HistoryEntry } from '../store/records.js';
import { copyPlaceholders } from './placeholders.js';
import { documentFields } from './pdf-geometry.js';

export const ARCHIVED = 'Archived';

/** A contract of this client, or 404: keys of other clients answer as if they did not exist. */
export function findContract(ctx: OpContext, client: ClientRecord, contractKey: string): ContractRecord {
  const contract = ctx.store.contracts.get(contractKey);
  if (!contract || contract.clientKey !== client.clientKey) throw ApiError.notFound('Contract not found');
  return contract;
}

export function assertOpen(contract: ContractRecord, what: string): void {
  if (contract.status === ARCHIVED) throw ApiError.conflict(`Contract is archived; it cannot ${what}`);
}

/** Appends to the contract's history and bumps changeTime, in one store write. */
export function recordHistory(ctx: OpContext, contract: ContractRecord, entry: Omit<HistoryEntry, 'at' | 'cause'>, patch: Partial<ContractRecord> = {}): void {
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
  /** `pdf`: no content yet, the file comes with POST /api/upload_pdf. Default `html`; from a template, the template's. */
  contractType?: 'html' | 'pdf' | undefined;
  userKey: string;
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
  const pdf = template ? documentFields(template, { contractKey }, client.clientKey) : input.contractType === 'pdf' ? { contractType: 'pdf' as const, value: '' } : {};
  const contract = ctx.store.contracts.insert({
    contractKey,
    clientKey: client.clientKey,
    platformId: client.platformId,
    userKey: input.userKey,
    name: input.name,
    value,
    ...(template ? { templateKey: template.templateKey } : {}),
    ...pdf,
    status: 'Created',
    nextRecipientId: 1,
    nextPlaceholderPosition: 1,
    createTime: now,
    changeTime: now,
    history: [{ at: now, event: 'created', status: 'Created', cause: ctx.cause }],
  });
  if (template) copyPlaceholders(ctx, { templateKey: template.templateKey }, { contractKey: contract.contractKey }, client);
  emitContractEvent(ctx, 'contract.created', client.platformId, {
    contractKey: contract.contractKey,
    clientKey: client.clientKey,
    status: contract.status,
  });
  return contract;
}

export function archiveContract(ctx: OpContext, contract: ContractRecord): ContractRecord {
  if (contract.status === ARCHIVED) throw ApiError.conflict('Contract is already archived');
  recordHistory(ctx, contract, { event: 'archived', status: ARCHIVED, detail: { previousStatus: contract.status } }, { status: ARCHIVED });
  return contract;
}

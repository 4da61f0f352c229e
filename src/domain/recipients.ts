/** Recipients of a contract: add, change, remove. Each recipient brings its four special placeholders. */
import type { OpContext } from './context.js';
import { ApiError } from '../core/errors.js';
import type { ClientRecord, ContractRecord, RecipientRecord } from '../store/records.js';
import { type RecipientRole, pastTense } from '../core/vocabulary.js';
import { addSpecialPlaceholders, deleteSpecialPlaceholders } from './placeholders.js';
import { definedFields } from './fields.js';

export interface RecipientFields {
  action?: RecipientRole | undefined;
  customMessage?: string | undefined;
  fullname?: string | undefined;
  email?: string | undefined;
  position?: number | undefined;
  type?: 'internal' | 'external' | undefined;
}

export function recipientsOf(ctx: OpContext, contractKey: string): RecipientRecord[] {
  return ctx.store.recipients.where('contract', contractKey);
}

export function findRecipient(ctx: OpContext, contract: ContractRecord, recipientKey: string): RecipientRecord {
  const recipient = ctx.store.recipients.get(recipientKey);
  if (!recipient || recipient.contractKey !== contract.contractKey) throw ApiError.notFound('Recipient not found');
  return recipient;
}

export function addRecipient(
  ctx: OpContext,
  contract: ContractRecord,
  client: ClientRecord,
  fields: RecipientFields,
): RecipientRecord {
  const now = ctx.clock.now();
  const id = contract.nextRecipientId;
  ctx.store.contracts.update(contract.contractKey, { nextRecipientId: id + 1 });
  const recipient = ctx.store.recipients.insert({
    recipientKey: ctx.ids.key(),
    contractKey: contract.contractKey,
    clientKey: client.clientKey,
    platformId: client.platformId,
    id,
    ...definedFields(fields),
    action: fields.action ?? 'sign',
    state: 'waiting',
    createTime: now,
    changeTime: now,
  });
  addSpecialPlaceholders(ctx, contract, client, recipient);
  return recipient;
}

/** Recipients that have finished their part can no longer be changed or removed. */
export function assertChangeable(recipient: RecipientRecord, what: string): void {
  if (recipient.actedAt !== undefined) {
    throw ApiError.conflict(
      `Recipient ${recipient.recipientKey} has already ${pastTense(recipient.action)}; it cannot ${what}`,
    );
  }
}

/** Whether applying `fields` would change the recipient (a re-send may repeat a recipient exactly as it is). */
export function changesRecipient(recipient: RecipientRecord, fields: RecipientFields): boolean {
  return Object.entries(fields).some(
    ([k, v]) => v !== undefined && (recipient as unknown as Record<string, unknown>)[k] !== v,
  );
}

export function updateRecipient(ctx: OpContext, recipient: RecipientRecord, fields: RecipientFields): RecipientRecord {
  assertChangeable(recipient, 'be changed');
  return ctx.store.recipients.update(recipient.recipientKey, { ...definedFields(fields), changeTime: ctx.clock.now() });
}

export function deleteRecipient(ctx: OpContext, recipient: RecipientRecord): void {
  assertChangeable(recipient, 'be deleted');
  ctx.store.recipients.delete(recipient.recipientKey);
  deleteSpecialPlaceholders(ctx, recipient.recipientKey);
}

/**
 * How a recipient is named to a person (the recipient page, the dashboard, documents, the drawn signature): the full
 * name, else the email; undefined when it has neither, so each place says what stands in (an id, "Signed").
 */
export function recipientName(r: { fullname?: string | undefined; email?: string | undefined }): string | undefined {
  return r.fullname || r.email || undefined;
}

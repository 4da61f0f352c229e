/**
 * Sending a contract with a list of recipients (recipient `send`, and contract create-and-send): new recipients
 * are added, named ones updated, then the contract is sent (lifecycle.ts).
 */
import { type OpContext, requireClient } from './context.js';
import { assertOpen, recordHistory } from './contracts.js';
import { assertKeepsFullySigned, sendContract } from './lifecycle.js';
import {
  type RecipientFields,
  addRecipient,
  assertChangeable,
  changesRecipient,
  findRecipient,
  updateRecipient,
} from './recipients.js';
import type { ContractRecord, RecipientRecord } from '../store/records.js';
import { HISTORY } from '../core/vocabulary.js';

/** One recipient to send to: a new one, or an existing one (by `recipientKey`) whose given fields change. */
export interface SendItem extends RecipientFields {
  recipientKey?: string | undefined;
  clientKey?: string | undefined;
  /** Sent by the real components (0 for a new recipient); ignored: recipients are numbered by the sandbox. */
  id?: unknown;
}

export function sendToRecipients(ctx: OpContext, contract: ContractRecord, items: SendItem[]): void {
  assertOpen(contract, 'be sent');
  // The `sent` history entry lists the recipients: no entry of their own.
  changeRecipients(ctx, contract, items);
  sendContract(ctx, ctx.store.contracts.get(contract.contractKey)!);
}

/**
 * Adds the new recipients and changes the named ones, without sending (recipient `create`, contract `update` with
 * recipients [D:recipient/create]). Every item is checked before anything changes. Answers the new recipients.
 */
export function applyRecipients(ctx: OpContext, contract: ContractRecord, items: SendItem[]): RecipientRecord[] {
  const added = changeRecipients(ctx, contract, items);
  if (added.length > 0) {
    recordHistory(ctx, ctx.store.contracts.get(contract.contractKey)!, {
      event: HISTORY.recipientsAdded,
      status: contract.status,
      detail: { recipients: added.map((r) => r.recipientKey) },
    });
  }
  return added;
}

function changeRecipients(ctx: OpContext, contract: ContractRecord, items: SendItem[]): RecipientRecord[] {
  const client = requireClient(ctx);
  assertOpen(contract, 'change recipients');
  // Check every named recipient before changing anything, so a bad item leaves the contract as it was.
  const existing = items.map((item) =>
    item.recipientKey !== undefined ? findRecipient(ctx, contract, item.recipientKey) : undefined,
  );
  const changes = items.map(({ recipientKey: _key, clientKey: _client, id: _id, ...fields }) => fields);
  items.forEach((item, i) => {
    assertKeepsFullySigned(contract, { current: existing[i]?.action, action: item.action });
  });
  // Naming a recipient exactly as it is changes nothing, so a re-send may repeat recipients that have acted.
  existing.forEach((current, i) => {
    if (current && changesRecipient(current, changes[i]!)) assertChangeable(current, 'be changed');
  });
  const added: RecipientRecord[] = [];
  items.forEach((_item, i) => {
    const current = existing[i];
    if (!current) added.push(addRecipient(ctx, ctx.store.contracts.get(contract.contractKey)!, client, changes[i]!));
    else if (changesRecipient(current, changes[i]!)) updateRecipient(ctx, current, changes[i]!);
  });
  return added;
}

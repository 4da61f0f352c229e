/**
 * Sending a contract with a list of recipients (recipient `send`, and contract create-and-send): new recipients
 * are added, named ones updated, then the contract is sent (lifecycle.ts).
 */
import { type OpContext, requireClient } from './context.js';
import { assertOpen } from './contracts.js';
import { assertKeepsFullySigned, sendContract } from './lifecycle.js';
import { type RecipientFields, addRecipient, assertChangeable, changesRecipient, findRecipient, updateRecipient } from './recipients.js';
import type { ContractRecord } from '../store/records.js';

/** One recipient to send to: a new one, or an existing one (by `recipientKey`) whose given fields change. */
export interface SendItem extends RecipientFields {
  recipientKey?: string | undefined;
  clientKey?: string | undefined;
}

export function sendToRecipients(ctx: OpContext, contract: ContractRecord, items: SendItem[]): void {
  const client = requireClient(ctx);
  assertOpen(contract, 'be sent');
  // Check every named recipient before changing anything, so a bad item leaves the contract as it was.
  const existing = items.map((item) => (item.recipientKey !== undefined ? findRecipient(ctx, contract, item.recipientKey) : undefined));
  const changes = items.map(({ recipientKey: _key, clientKey: _client, ...fields }) => fields);
  items.forEach((item, i) => assertKeepsFullySigned(contract, { current: existing[i]?.action, action: item.action }));
  // Naming a recipient exactly as it is changes nothing, so a re-send may repeat recipients that have acted.
  existing.forEach((current, i) => {
    if (current && changesRecipient(current, changes[i]!)) assertChangeable(current, 'be changed');
  });
  items.forEach((_item, i) => {
    const current = existing[i];
    if (!current) addRecipient(ctx, ctx.store.contracts.get(contract.contractKey)!, client, changes[i]!);
    else if (changesRecipient(current, changes[i]!)) updateRecipient(ctx, current, changes[i]!);
  });
  sendContract(ctx, ctx.store.contracts.get(contract.contractKey)!);
}

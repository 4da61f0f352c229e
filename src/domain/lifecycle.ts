/**
 * The contract lifecycle (decisions §6). Sending records who was sent what in the contract's history and
 * emits `contract.sent`; the recipient simulation subscribes to the bus.
 */
import type { OpContext } from '../context.js';
import { emitContractEvent } from '../context.js';
import { ApiError } from '../errors.js';
import type { ContractRecord } from '../store/records.js';
import { assertOpen, recordHistory } from './contracts.js';
import { recipientsOf } from './recipients.js';

export function sendContract(ctx: OpContext, contract: ContractRecord): void {
  assertOpen(contract, 'be sent');
  const recipients = recipientsOf(ctx, contract.contractKey);
  if (recipients.length === 0) {
    throw ApiError.conflict('Contract has no recipients; send data.recipients to add them');
  }
  const status = contract.status === 'Created' ? 'Sent' : contract.status;
  recordHistory(
    ctx,
    contract,
    {
      event: 'sent',
      status,
      detail: { recipients: recipients.map((r) => ({ recipientKey: r.recipientKey, email: r.email ?? '', action: r.action, position: r.position })) },
    },
    { status },
  );
  emitContractEvent(ctx, 'contract.sent', contract.platformId, {
    contractKey: contract.contractKey,
    clientKey: contract.clientKey,
    status,
  });
}

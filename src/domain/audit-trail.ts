/**
 * The audit trail of a contract (`GET /api/contract_event` [C:document-timeline-block.tsx, types.ts]), read from its
 * history: one entry per lifecycle step, in order (decisions §11). `status` is the step's numeric id in the status
 * dictionary (event-status.ts); the person is the acting recipient, or the contract's owner for the owner's steps.
 */
import type { OpContext } from './context.js';
import type { ContractRecord } from '../store/records.js';
import { isoTime } from '../core/time-format.js';
import { type LifecycleStep, STEP_STATUS, statusId } from '../core/vocabulary.js';

/** Where no page request gave an address (the control API, scenarios), the audit trail shows the loopback one. */
export const DEFAULT_IP = '127.0.0.1';

export interface AuditEntry {
  id: number;
  createTime: string;
  status: number;
  email: string;
  name: string;
  ipInfo: string;
  priority: number | null;
  shareLink: string | null;
  controlLink: string | null;
  userId: string | null;
}

export function auditTrail(ctx: OpContext, contract: ContractRecord): AuditEntry[] {
  const owner = ctx.store.users.get(contract.userKey);
  const entries: AuditEntry[] = [];
  for (const step of contract.history) {
    if (!(step.event in STEP_STATUS)) continue;
    const status = statusId(STEP_STATUS[step.event as LifecycleStep])!;
    const recipient = step.recipientKey !== undefined ? ctx.store.recipients.get(step.recipientKey) : undefined;
    const byRecipient = step.recipientKey !== undefined;
    entries.push({
      id: entries.length + 1,
      createTime: isoTime(step.at),
      status,
      email: (byRecipient ? recipient?.email : owner?.email) ?? '',
      name: (byRecipient ? recipient?.fullname : owner?.fullname) ?? '',
      ipInfo: step.ip ?? DEFAULT_IP,
      // The order of the recipient's turn; the owner's steps have none.
      priority: recipient?.position ?? null,
      // A recipient's own link is its key; the owner's steps came through no link.
      shareLink: byRecipient ? step.recipientKey! : null,
      controlLink: null,
      userId: byRecipient ? null : contract.userKey,
    });
  }
  return entries;
}

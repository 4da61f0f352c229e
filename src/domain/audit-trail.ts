/**
 * The audit trail of a contract (`GET /api/contract_event` [C:document-timeline-block.tsx, types.ts]), read from its
 * history: one entry per lifecycle step, in order (decisions §11). `status` is the step's numeric id in the status
 * dictionary (event-status.ts); the person is the acting recipient, or the contract's owner for the owner's steps.
 */
import type { OpContext } from './context.js';
import type { ContractRecord, HistoryEntry } from '../store/records.js';
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
    const given = actedAs(step);
    entries.push({
      id: entries.length + 1,
      createTime: isoTime(step.at),
      status,
      email: given?.email ?? (byRecipient ? recipient?.email : owner?.email) ?? '',
      name: given?.fullName ?? (byRecipient ? recipient?.fullname : owner?.fullname) ?? '',
      ipInfo: ipInfoOf(step),
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

/** The name and email a client sent with the act (recipient_sign, recipient_approve), when it sent them. */
export function actedAs(step: HistoryEntry): { fullName: string; email: string } | undefined {
  const { fullName, email } = step.detail ?? {};
  return typeof fullName === 'string' && typeof email === 'string' ? { fullName, email } : undefined;
}

/**
 * `ipInfo` as the real service's clients read it: a JSON string they parse for `ip`, `city`, `country_name`,
 * `timezone` and `utc_offset` (docs/compatibility.md). The one a client sent with the act
 * (an ipapi.co answer) as it was sent; else one the sandbox makes from the address the act came from, saying where
 * it knows nothing.
 */
export function ipInfoOf(step: HistoryEntry): string {
  const sent = step.detail?.ipInfo;
  if (typeof sent === 'string' && sent !== '') return sent;
  return JSON.stringify({
    ip: step.ip ?? DEFAULT_IP,
    city: 'Not collected',
    country_name: 'Not collected',
    timezone: 'UTC',
    utc_offset: '+0000',
  });
}

/**
 * An `ipInfo` a client sends, kept only when it is what the clients can read back: a JSON object (at most 4 KB).
 * `''` (the vendor's RecipientView sends it when its lookup has not answered) and anything else count as none.
 */
export function acceptedIpInfo(ipInfo: string | undefined): { ipInfo?: string; ip?: string } {
  if (!ipInfo || ipInfo.length > 4096) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(ipInfo);
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
  const ip = (parsed as { ip?: unknown }).ip;
  return { ipInfo, ...(typeof ip === 'string' && ip.length <= 64 ? { ip } : {}) };
}

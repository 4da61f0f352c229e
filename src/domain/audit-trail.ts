/**
 * The audit trail of a contract, read from its history: the one place that says who took each step and where it
 * came from. `GET /api/contract_event` [C:document-timeline-block.tsx, types.ts] answers its timeline steps
 * (docs/lifecycle.md, "The audit trail"); the signed PDF's audit page lists every row (docs/documents.md). Rules:
 * - a step that names a recipient is that recipient's; every other step is the contract owner's (its user);
 * - its IP is the address of the request that made it (the recipient page records the browser's); the control API
 *   and scenarios act from `127.0.0.1`;
 * - a step a client took through the recipient endpoints (`recipient_sign`, `recipient_approve`) shows the name,
 *   email and `ipInfo` that client sent (docs/compatibility.md).
 */
import type { OpContext } from './context.js';
import type { ContractRecord, HistoryEntry } from '../store/records.js';
import { isoTime } from '../core/time-format.js';
import { stepStatusId } from '../core/vocabulary.js';

/** Where no page request gave an address (the control API, scenarios), the audit trail shows the loopback one. */
export const DEFAULT_IP = '127.0.0.1';

/** One row of the audit trail: a history entry with the person who took it and the address it came from. */
export interface AuditRow {
  at: number;
  /** The history event (`created`, `notified`, `signed`, `fully_signed`, …). */
  event: string;
  /** The event as people read it: `Fully signed`, `Notified`. */
  title: string;
  /** The step's id in the status dictionary (1 Created … 7 Archived); undefined for rows that are not timeline steps. */
  status: number | undefined;
  name: string;
  email: string;
  ip: string;
  /** `ip` and where it is, as the JSON string the real clients parse (`ipInfoOf`). */
  ipInfo: string;
  /** The recipient's key for a recipient's step; its own share link. */
  recipientKey: string | undefined;
  /** The recipient's position, for a recipient's step that has one. */
  priority: number | undefined;
  /** The owner's user for the owner's steps. */
  userKey: string | undefined;
}

/** Every history entry of the contract, in order, as a row of the audit trail. */
export function auditRows(ctx: OpContext, contract: ContractRecord): AuditRow[] {
  const owner = ctx.store.users.get(contract.userKey);
  return contract.history.map((step) => {
    const recipient = step.recipientKey !== undefined ? ctx.store.recipients.get(step.recipientKey) : undefined;
    const byRecipient = step.recipientKey !== undefined;
    const person = byRecipient ? recipient : owner;
    const given = actedAs(step);
    return {
      at: step.at,
      event: step.event,
      title: titleOf(step.event),
      status: stepStatusId(step.event),
      name: given?.fullName ?? person?.fullname ?? '',
      email: given?.email ?? person?.email ?? '',
      ip: ipOf(step),
      ipInfo: ipInfoOf(step),
      recipientKey: step.recipientKey,
      priority: recipient?.position,
      userKey: byRecipient ? undefined : contract.userKey,
    };
  });
}

/** The address the step came from. */
export function ipOf(step: HistoryEntry): string {
  return step.ip !== undefined && step.ip !== '' ? step.ip : DEFAULT_IP;
}

/** `fully_signed` → `Fully signed`: a lifecycle step reads as its status, any other event the same way. */
function titleOf(event: string): string {
  const words = event.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** An entry of `GET /api/contract_event`. */
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

/** The timeline of `GET /api/contract_event`: the rows that are lifecycle steps, numbered from 1. */
/** `shareLinkOf`: a recipient's key as the reader sees it (a share link's holder sees aliases of the others'). */
export function auditTrail(
  ctx: OpContext,
  contract: ContractRecord,
  shareLinkOf: (recipientKey: string) => string = (key) => key,
): AuditEntry[] {
  const entries: AuditEntry[] = [];
  for (const row of auditRows(ctx, contract)) {
    if (row.status === undefined) continue;
    entries.push({
      id: entries.length + 1,
      createTime: isoTime(row.at),
      status: row.status,
      email: row.email,
      name: row.name,
      ipInfo: row.ipInfo,
      // The order of the recipient's turn; the owner's steps have none.
      priority: row.priority ?? null,
      // A recipient's own link is its key; the owner's steps came through no link.
      shareLink: row.recipientKey !== undefined ? shareLinkOf(row.recipientKey) : null,
      controlLink: null,
      userId: row.userKey ?? null,
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
    ip: ipOf(step),
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

/**
 * The audit trail of a contract, read from its history: the one place that says who took each step and where it
 * came from. `GET /api/contract_event` [C:document-timeline-block.tsx, types.ts] answers its timeline steps
 * (docs/lifecycle.md, "The audit trail"); the signed PDF's audit page lists every row (docs/documents.md). Rules:
 * - a step that names a recipient is that recipient's; every other step is the contract owner's (its user);
 * - its IP is the address of the request that made it (the recipient page records the browser's); the control API
 *   and scenarios act from `127.0.0.1`.
 */
import type { OpContext } from './context.js';
import type { ContractRecord, HistoryEntry } from '../store/records.js';
import { isoTime } from '../core/time-format.js';
import { type LifecycleStep, STEP_STATUS, statusId } from '../core/vocabulary.js';

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
    return {
      at: step.at,
      event: step.event,
      title: titleOf(step.event),
      status: step.event in STEP_STATUS ? statusId(STEP_STATUS[step.event as LifecycleStep]) : undefined,
      name: person?.fullname ?? '',
      email: person?.email ?? '',
      ip: ipOf(step),
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
export function auditTrail(ctx: OpContext, contract: ContractRecord): AuditEntry[] {
  const entries: AuditEntry[] = [];
  for (const row of auditRows(ctx, contract)) {
    if (row.status === undefined) continue;
    entries.push({
      id: entries.length + 1,
      createTime: isoTime(row.at),
      status: row.status,
      email: row.email,
      name: row.name,
      ipInfo: row.ip,
      // The order of the recipient's turn; the owner's steps have none.
      priority: row.priority ?? null,
      // A recipient's own link is its key; the owner's steps came through no link.
      shareLink: row.recipientKey ?? null,
      controlLink: null,
      userId: row.userKey ?? null,
    });
  }
  return entries;
}

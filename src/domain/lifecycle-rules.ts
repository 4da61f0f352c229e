/**
 * The lifecycle's rules as data (docs/lifecycle.md), so one table decides every recipient action and docs/lifecycle.md
 * and the tests can state the same table. Effects (store writes, events, emails) live in lifecycle.ts.
 */
import type { RecipientRecord } from '../store/records.js';
import { type ContractStatus, type RecipientRole, isOutcomeState, type RecipientState } from '../core/vocabulary.js';

/**
 * How a verb relates to the recipient asking: `own` is the verb of its role (for a `view` recipient that is
 * `view`), `view` is viewing by a recipient whose role is something else, `other` is any other role's verb.
 */
export type VerbKind = 'view' | 'own' | 'other';

export type Refusal = 'not-notified' | 'already-viewed' | 'already-acted' | 'wrong-role';

/** `outcome` is the done-state of the recipient's role (`ROLE_OUTCOME` in core/vocabulary.ts): signed, approved, locked or viewed. */
export type Cell = { to: 'seen' | 'outcome' } | { refuse: Refusal };

/** Every recipient state × every kind of verb: the one place that says what a recipient may do. */
export const RECIPIENT_RULES: Record<RecipientState, Record<VerbKind, Cell>> = {
  waiting: { view: { refuse: 'not-notified' }, own: { refuse: 'not-notified' }, other: { refuse: 'wrong-role' } },
  notified: { view: { to: 'seen' }, own: { to: 'outcome' }, other: { refuse: 'wrong-role' } },
  seen: { view: { refuse: 'already-viewed' }, own: { to: 'outcome' }, other: { refuse: 'wrong-role' } },
  signed: { view: { refuse: 'already-viewed' }, own: { refuse: 'already-acted' }, other: { refuse: 'wrong-role' } },
  approved: { view: { refuse: 'already-viewed' }, own: { refuse: 'already-acted' }, other: { refuse: 'wrong-role' } },
  locked: { view: { refuse: 'already-viewed' }, own: { refuse: 'already-acted' }, other: { refuse: 'wrong-role' } },
  viewed: { view: { refuse: 'already-viewed' }, own: { refuse: 'already-acted' }, other: { refuse: 'wrong-role' } },
};

export function verbKind(role: RecipientRole, verb: RecipientRole): VerbKind {
  if (verb === role) return 'own';
  return verb === 'view' ? 'view' : 'other';
}

/** Done: the recipient has finished its part (its role's outcome). */
export function isDone(recipient: Pick<RecipientRecord, 'state'>): boolean {
  return isOutcomeState(recipient.state);
}

/** Has seen the contract: viewed it, or acted (acting implies viewing). */
export function hasSeen(recipient: Pick<RecipientRecord, 'state'>): boolean {
  return recipient.state === 'seen' || isDone(recipient);
}

/** Every signer has signed (and there is at least one): the contract is fully signed (docs/lifecycle.md). */
export function allSigned(recipients: readonly Pick<RecipientRecord, 'action' | 'state'>[]): boolean {
  const signers = recipients.filter((r) => r.action === 'sign');
  return signers.length > 0 && signers.every((r) => r.state === 'signed');
}

/** `view` recipients never hold up the order (docs/lifecycle.md). */
export function blocksOrder(recipient: Pick<RecipientRecord, 'action' | 'state'>): boolean {
  return recipient.action !== 'view' && !isDone(recipient);
}

/**
 * The lowest position still open: the lowest position holding a sign/approve/lock recipient that has not acted.
 * `undefined` when every position is done.
 */
export function openPosition(
  recipients: readonly Pick<RecipientRecord, 'action' | 'state' | 'position'>[],
): number | undefined {
  let lowest: number | undefined;
  for (const r of recipients) {
    if (r.position === undefined || !blocksOrder(r)) continue;
    if (lowest === undefined || r.position < lowest) lowest = r.position;
  }
  return lowest;
}

/** Whose turn it is: no position, or a position at or below the lowest open one. */
export function hasTurn(recipient: Pick<RecipientRecord, 'position'>, open: number | undefined): boolean {
  return recipient.position === undefined || open === undefined || recipient.position <= open;
}

/**
 * How far each status reaches (docs/lifecycle.md): a step only moves the status forward, and between `Approved` and
 * `Signed` (same rank) the latest one wins. `Archived` sits outside the order.
 */
const STATUS_RANK: Partial<Record<ContractStatus, number>> = {
  Created: 0,
  Sent: 1,
  Seen: 2,
  Approved: 3,
  Signed: 3,
  'Fully signed': 4,
};

export function advanceStatus(current: ContractStatus, step: ContractStatus): ContractStatus {
  return (STATUS_RANK[step] ?? 0) >= (STATUS_RANK[current] ?? 0) ? step : current;
}

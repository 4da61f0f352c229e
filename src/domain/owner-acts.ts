/**
 * The contract owner's side of signing, as the vendor's ContractEditor calls it with the usual credentials:
 * `contract_sign` GET/POST, `contract_approve`, `contract_email_sign`, `contract_email_approve`,
 * `contract_email_sign_pdf`, `check_contract_value` (docs/compatibility.md, "Owner endpoints").
 *
 * Signing and approving are acts of a recipient in the sandbox's model: the owner signs or approves as the contract's
 * recipient with the email it types, through the same operations as the recipient side (recipient-acts.ts), so the
 * rules (turn, role, once: 409), events, webhooks, emails and audit trail are one. A contract with no such recipient
 * answers 409 naming what to add.
 */
import type { OpContext } from './context.js';
import { contractValue } from './contracts.js';
import { type ActingPerson, approveByLink, confirmByEmail, signByLink } from './recipient-acts.js';
import { contractSignatures } from './recipient-reads.js';
import { ApiError, quote } from '../core/errors.js';
import { SHARE_LINK_ACCESS_OF_ROLE, pastTense, contractTypeOf } from '../core/vocabulary.js';
import type { ContractRecord, RecipientRecord } from '../store/records.js';

type Role = 'sign' | 'approve';

/**
 * The recipient the owner acts as: the contract's recipient with this email (letter case aside) and this role, the
 * first one still to act, else the first one.
 */
function ownerRecipient(ctx: OpContext, contract: ContractRecord, email: string, role: Role): RecipientRecord {
  const wanted = email.trim().toLowerCase();
  const matching = ctx.store.recipients
    .where('contract', contract.contractKey)
    .filter((r) => r.action === role && (r.email ?? '').toLowerCase() === wanted)
    .sort((a, b) => a.id - b.id);
  const recipient = matching.find((r) => r.state !== pastTense(role)) ?? matching[0];
  if (!recipient) {
    throw ApiError.conflict(
      `Contract ${contract.contractKey} has no recipient with email ${quote(email, 100)} who ${role}s; add one ` +
        `(action "${role}") to ${role} from the owner's side`,
    );
  }
  return recipient;
}

function linkOf(recipient: RecipientRecord, contract: ContractRecord, role: Role) {
  return { shareLink: recipient.recipientKey, recipient, contract, view: SHARE_LINK_ACCESS_OF_ROLE[role] };
}

/** POST `contract_sign`: the owner signs, as the recipient with the email it typed. */
export function ownerSign(ctx: OpContext, contract: ContractRecord, person: ActingPerson & { base64: string }) {
  const recipient = ownerRecipient(ctx, contract, person.email, 'sign');
  return signByLink(ctx, linkOf(recipient, contract, 'sign'), person);
}

/** POST `contract_approve`: the owner approves, as the recipient with the email it typed. */
export function ownerApprove(ctx: OpContext, contract: ContractRecord, person: ActingPerson) {
  const recipient = ownerRecipient(ctx, contract, person.email, 'approve');
  return approveByLink(ctx, linkOf(recipient, contract, 'approve'), person);
}

/**
 * POST `contract_email_sign` / `contract_email_approve` (and `contract_email_sign_pdf`): the confirmation the service
 * sends after the owner's signature or approval, into the outbox, for the latest recipient who did so. 409 when
 * nobody has yet.
 */
export function ownerConfirm(ctx: OpContext, contract: ContractRecord, role: Role): void {
  const latest = ctx.store.recipients
    .where('contract', contract.contractKey)
    .filter((r) => r.state === pastTense(role))
    .sort((a, b) => (b.actedAt ?? 0) - (a.actedAt ?? 0) || b.id - a.id)[0];
  if (!latest)
    throw ApiError.conflict(`Contract ${contract.contractKey} has not been ${pastTense(role)}; nothing to confirm`);
  confirmByEmail(ctx, linkOf(latest, contract, role), role);
}

/** GET `contract_sign`: the contract's signatures, oldest first (the same list as `recipient_sign`). */
export function ownerSignatures(ctx: OpContext, contract: ContractRecord) {
  return contractSignatures(ctx, contract);
}

/**
 * POST `check_contract_value {contractKey, signCount?}`, asked before the editor saves and before sharing. The
 * editor holds the content it read and the number of signatures it saw (`signCount`, absent = 0: the editor only
 * edits while there are none). Changed when an HTML contract has another number of signatures now: a signature
 * fills the signer's fields, so the content the editor holds is stale; then `contractValue` is the content now.
 * A PDF contract's content is its file, which signing does not change: never changed.
 */
export function contractValueChanged(
  ctx: OpContext,
  contract: ContractRecord,
  signCount: number | undefined,
): { changed: boolean; contractValue?: string } {
  if (contractTypeOf(contract) === 'pdf') return { changed: false };
  const now = contractSignatures(ctx, contract).length;
  return now === (signCount ?? 0) ? { changed: false } : { changed: true, contractValue: contractValue(ctx, contract) };
}

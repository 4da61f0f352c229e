/**
 * What each captured email says (docs/lifecycle.md, "Emails"). The texts are the sandbox's own: the real service's wording is
 * undocumented, so tests should assert on `kind`, `to`, `link` and `message` rather than on the prose.
 */
import type { ClientRecord, ContractRecord, RecipientRecord, UserRecord } from '../store/records.js';
import { type RecipientRole, pastTense } from '../core/vocabulary.js';

export type EmailKind =
  | 'signing_request'
  | 'approval_request'
  | 'view_request'
  | 'lock_request'
  | 'contract_signed'
  | 'contract_approved'
  | 'sign_confirmation'
  | 'approve_confirmation';

export const REQUEST_KIND: Record<RecipientRole, EmailKind> = {
  sign: 'signing_request',
  approve: 'approval_request',
  view: 'view_request',
  lock: 'lock_request',
};

/** Who the contract comes from, as a recipient would read it. */
export function senderName(client: ClientRecord | undefined, user: UserRecord | undefined): string {
  return user?.fullname || client?.organization || client?.fullname || 'The sender';
}

export function defaultMessage(sender: string, contract: ContractRecord, role: RecipientRole): string {
  return `${sender} has sent you "${contract.name}" to ${role}.`;
}

export function requestSubject(contract: ContractRecord, role: RecipientRole): string {
  return role === 'view' ? `"${contract.name}" has been shared with you` : `Please ${role} "${contract.name}"`;
}

/**
 * An email opens with the recipient's full name, or a bare "Hello," without one: never the address it was sent to
 * (so not recipientName's fallback to the email, domain/recipients.ts).
 */
const greeting = (recipient: RecipientRecord) => (recipient.fullname ? `Hello ${recipient.fullname},` : 'Hello,');

export function requestText(recipient: RecipientRecord, message: string, link: string): string {
  return `${greeting(recipient)}\n\n${message}\n\nOpen the contract: ${link}\n`;
}

export function noticeSubject(contract: ContractRecord, role: 'sign' | 'approve', fullySigned: boolean): string {
  if (role === 'sign' && fullySigned) return `"${contract.name}" is fully signed`;
  return `"${contract.name}" was ${pastTense(role)}`;
}

export function noticeText(
  contract: ContractRecord,
  recipient: RecipientRecord | undefined,
  role: 'sign' | 'approve',
  fullySigned: boolean,
): string {
  const who = recipient
    ? recipient.fullname
      ? `${recipient.fullname} <${recipient.email ?? ''}>`
      : (recipient.email ?? 'A recipient')
    : 'A recipient';
  const done = pastTense(role);
  const tail = fullySigned ? '\nEvery signer has now signed.' : '';
  return `${who} ${done} "${contract.name}" (${contract.contractKey}).${tail}\n`;
}

/** The confirmation a recipient gets of its own signature or approval (`recipient_sign_email`, `recipient_approve_email`). */
export function confirmationSubject(contract: ContractRecord, role: 'sign' | 'approve'): string {
  return `You ${pastTense(role)} "${contract.name}"`;
}

export function confirmationText(
  recipient: RecipientRecord,
  contract: ContractRecord,
  role: 'sign' | 'approve',
  link: string,
): string {
  return `${greeting(recipient)}\n\nYou ${pastTense(role)} "${contract.name}".\n\nOpen the contract: ${link}\n`;
}

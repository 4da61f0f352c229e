/**
 * What the holder of a share link does on the real service's recipient side, through the endpoints the vendor's
 * RecipientView calls with no credentials (POST `contract_event`, `recipient_sign`, `recipient_approve`,
 * `recipient_placeholder`, `recipient_contract`, `recipient_sign_email`, `recipient_approve_email`;
 * docs/compatibility.md). Viewing, signing and approving are `actAsRecipient`, the operation the recipient page and
 * `POST /__sandbox/recipients/{key}/{verb}` run: the same rules (turn, role, once: 409), events, webhooks, emails and
 * history.
 */
import type { OpContext } from './context.js';
import { type NewHistoryEntry, recordHistory } from './contracts.js';
import { acceptedIpInfo } from './audit-trail.js';
import { type ActOptions, actAsRecipient } from './lifecycle.js';
import { checkSignatureImage } from './signature-image.js';
import { placeholdersOf } from './placeholders.js';
import { contentChangeTime, recipientTagId } from './recipient-reads.js';
import { type ResolvedShareLink, assertLinkActs } from './share-links.js';
import { ApiError } from '../core/errors.js';
import { HISTORY, type HistoryEvent, STATUS, pastTense } from '../core/vocabulary.js';
import type { ContractRecord, HistoryEntry } from '../store/records.js';
import { isoTime, sqlTime } from '../core/time-format.js';
import type { RecipientRole } from '../core/vocabulary.js';

/** The PNG data URL of a drawn signature, as RecipientView's canvas gives it (`toDataURL()`). */
const PNG_DATA_URL = /^data:image\/png;base64,[A-Za-z0-9+/]+={0,2}$/;

export interface ActingPerson {
  fullName: string;
  email: string;
  /** A JSON string of the browser's location (an ipapi.co answer), or `''` when the lookup has not answered. */
  ipInfo?: string | undefined;
}

/**
 * POST `contract_event {shareLink, status: '3'}`: the recipient opened the contract. A notified recipient views it,
 * once, as opening its page does; a recipient that has already seen it, is done, or whose turn has not come is left
 * as it is (RecipientView posts this on every opening), and the answer says whether it counted.
 */
export function viewByLink(ctx: OpContext, link: ResolvedShareLink, options: ActOptions = {}): boolean {
  const { recipient, contract } = link;
  if (recipient.state !== 'notified' || contract.status === STATUS.archived) return false;
  actByLink(ctx, link, 'view', options);
  return true;
}

/**
 * The one door through which the holder of a share link acts (docs/architecture.md, "The path of one signing"): the
 * recipient page and the API's recipient side (`recipient_sign`, `recipient_approve`, opening the contract). The link
 * acts in its recipient's role (`assertLinkActs`; viewing needs no role), then the lifecycle's rules decide
 * (`actAsRecipient`).
 */
export function actByLink(ctx: OpContext, link: ResolvedShareLink, verb: RecipientRole, options: ActOptions = {}) {
  if (verb !== 'view') assertLinkActs(link, verb);
  return actAsRecipient(ctx, link.recipient.recipientKey, verb, options);
}

/**
 * POST `recipient_sign`: the recipient signs with the image it drew (a PNG data URL), under the name and email it
 * typed. Answers what RecipientView reads: `recipientId` is the N of the recipient's `<signN>`-style tags.
 */
export function signByLink(ctx: OpContext, link: ResolvedShareLink, person: ActingPerson & { base64: string }) {
  if (!PNG_DATA_URL.test(person.base64)) {
    throw ApiError.badRequest('base64 must be the drawn signature as a PNG data URL (data:image/png;base64,…)', [
      { path: 'base64', message: 'Not a PNG data URL' },
    ]);
  }
  // Decoded at the door, bounded, as every drawn signature (domain/signature-image.ts).
  checkSignatureImage('png', person.base64.slice(person.base64.indexOf(',') + 1), 'base64');
  const signed = actByLink(ctx, link, 'sign', {
    signature: person.base64,
    signer: { fullName: person.fullName, email: person.email },
    ...acceptedIpInfo(person.ipInfo),
  });
  return {
    fullName: person.fullName,
    email: person.email,
    createTime: isoTime(signed.actedAt ?? ctx.clock.now()),
    recipientId: recipientTagId(ctx, signed),
  };
}

/** POST `recipient_approve`: the recipient approves, under the name and email it typed. */
export function approveByLink(ctx: OpContext, link: ResolvedShareLink, person: ActingPerson) {
  const approved = actByLink(ctx, link, 'approve', {
    signer: { fullName: person.fullName, email: person.email },
    ...acceptedIpInfo(person.ipInfo),
  });
  return { fullName: person.fullName, email: person.email, createTime: isoTime(approved.actedAt ?? ctx.clock.now()) };
}

/**
 * Whether the contract still takes a link's notes (answers, its copy of the HTML): not once archived, nor once fully
 * signed, when its document and audit trail are final (docs/lifecycle.md).
 */
function assertContractTakesNotes(link: ResolvedShareLink, what: string): void {
  const { contract } = link;
  if (contract.status === STATUS.archived)
    throw ApiError.conflict(`Contract ${contract.contractKey} is archived; its recipients cannot ${what}`);
  if (contract.status === STATUS.fullySigned)
    throw ApiError.conflict(
      `Contract ${contract.contractKey} is fully signed; its document and audit trail no longer change, so its recipients cannot ${what}`,
    );
}

/** What a recipient may still do on the contract: fill its placeholders. */
function assertCanStillAct(link: ResolvedShareLink, what: string): void {
  const { recipient } = link;
  assertContractTakesNotes(link, what);
  // Filling is the first half of the link's act: a view-only link fills nothing.
  assertLinkActs(link, what);
  if (recipient.state === 'waiting')
    throw ApiError.conflict(`Recipient ${recipient.recipientKey} cannot ${what} yet: it has not been notified`);
  if (recipient.state !== 'notified' && recipient.state !== 'seen')
    throw ApiError.conflict(`Recipient ${recipient.recipientKey} has already ${recipient.state} the contract`);
}

/**
 * POST `recipient_placeholder {shareLink, placeholders}`: RecipientView sends every placeholder of the contract as it
 * received them, with the recipient's answers in its own. Only the values of the recipient's own ordinary
 * placeholders (those it is named to fill, `externalRecipientKey`) are taken; every other item is an echo and is
 * left alone. Answers how many values changed.
 */
export function fillByLink(
  ctx: OpContext,
  link: ResolvedShareLink,
  items: readonly { placeholderKey?: string | undefined; value?: unknown }[],
): number {
  assertCanStillAct(link, 'fill placeholders');
  const { recipient, contract } = link;
  const own = new Map(
    placeholdersOf(ctx, { contractKey: contract.contractKey })
      .filter((p) => !p.isSpecial && p.externalRecipientKey === recipient.recipientKey)
      .map((p) => [p.placeholderKey, p]),
  );
  const now = ctx.clock.now();
  const filled: string[] = [];
  for (const item of items) {
    const p = item.placeholderKey !== undefined ? own.get(item.placeholderKey) : undefined;
    if (!p || typeof item.value !== 'string' || item.value === p.value) continue;
    ctx.store.placeholders.update(p.placeholderKey, { value: item.value, changeTime: now });
    filled.push(p.placeholderKey);
  }
  if (filled.length > 0) {
    const before = lastNote(contract, HISTORY.recipientFilled, recipient.recipientKey)?.detail?.placeholders;
    const all = new Set([...(Array.isArray(before) ? (before as string[]) : []), ...filled]);
    noteOnce(ctx, ctx.store.contracts.get(contract.contractKey)!, {
      event: HISTORY.recipientFilled,
      recipientKey: recipient.recipientKey,
      status: contract.status,
      detail: { placeholders: [...all] },
    });
  }
  return filled.length;
}

/**
 * POST `recipient_contract {shareLink, contractValue}`: RecipientView saves the HTML it shows (answers filled in, and
 * after signing the signature block it appends). The sandbox notes it in the history (its size, one row per
 * recipient) and answers it back with the `changeTime` the recipient holds; the contract's own content stays as it
 * is, and the documents keep being rendered from the placeholders and signatures (docs/compatibility.md).
 *
 * Once the contract is fully signed its document and audit trail are final: a recipient that signed or approved
 * still gets its copy answered back (the component saves it right after the last signature, and sends the
 * confirmation email only on success), with nothing noted; anyone else is refused with 409.
 */
export function keepRecipientHtml(ctx: OpContext, link: ResolvedShareLink, html: string) {
  const { recipient, contract } = link;
  const actedCopy = recipient.state === 'signed' || recipient.state === 'approved';
  if (!(actedCopy && contract.status === STATUS.fullySigned)) {
    assertContractTakesNotes(link, 'save their copy of it');
    noteOnce(ctx, contract, {
      event: HISTORY.recipientHtml,
      recipientKey: recipient.recipientKey,
      status: contract.status,
      detail: { characters: html.length },
    });
  }
  return {
    contractValue: html,
    changeTime: sqlTime(contentChangeTime(ctx.store.contracts.get(contract.contractKey)!)),
  };
}

/**
 * Records a link's note in the history, replacing the same recipient's earlier note of the same kind: a link may
 * save its answers and its copy of the HTML as often as it likes, and the audit trail keeps one row of each per
 * recipient, not one per request.
 */
function noteOnce(ctx: OpContext, contract: ContractRecord, entry: NewHistoryEntry): void {
  const earlier = lastNote(contract, entry.event, entry.recipientKey);
  const kept = earlier ? { ...contract, history: contract.history.filter((h) => h !== earlier) } : contract;
  recordHistory(ctx, kept, entry);
}

function lastNote(
  contract: ContractRecord,
  event: HistoryEvent,
  recipientKey: string | undefined,
): HistoryEntry | undefined {
  return contract.history.findLast((h) => h.event === event && h.recipientKey === recipientKey);
}

/**
 * POST `recipient_sign_email` / `recipient_approve_email {shareLink}`: the confirmation the service sends the recipient
 * once it has signed or approved goes to the outbox (the notice to the contract's owner already went with the act,
 * docs/lifecycle.md, "Emails"). 409 before the recipient has acted.
 */
export function confirmByEmail(ctx: OpContext, link: ResolvedShareLink, role: 'sign' | 'approve'): void {
  const { recipient, contract } = link;
  const done = pastTense(role);
  if (recipient.state !== done)
    throw ApiError.conflict(
      `Recipient ${recipient.recipientKey} has not ${done} the contract; there is nothing to confirm`,
    );
  ctx.bus.emit({
    type: 'recipient.confirmed',
    platformId: contract.platformId,
    contractKey: contract.contractKey,
    clientKey: contract.clientKey,
    recipientKey: recipient.recipientKey,
    role,
    cause: ctx.cause,
  });
}

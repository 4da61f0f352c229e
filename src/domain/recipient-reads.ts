/**
 * What the holder of a share link reads on the real service's recipient side, the endpoints the vendor's RecipientView
 * calls with no credentials (`recipient_contract`, `recipient_sign`, `recipient_contract_status`,
 * `check_contract_changed`; docs/compatibility.md): the link alone names the recipient (share-links.ts).
 */
import type { OpContext } from './context.js';
import { contractValue } from './contracts.js';
import { isDone } from './lifecycle-rules.js';
import { placeholderBoxCode, placeholdersOf } from './placeholders.js';
import { actedAs } from './audit-trail.js';
import { type ResolvedShareLink, keyAsSeen } from './share-links.js';
import { ApiError } from '../core/errors.js';
import {
  CONTRACT_TYPE_CODES,
  HISTORY,
  type ShareLinkAccess,
  specialKey,
  statusId,
  contractTypeCode,
} from '../core/vocabulary.js';
import { isoTime, parseTime, sqlTime } from '../core/time-format.js';
import type { ContractRecord, PlaceholderRecord, RecipientRecord } from '../store/records.js';

/**
 * When the contract's content last changed: its creation or its owner's last `update` of content (value, template,
 * type or placeholder values). Recipients viewing, filling and signing do not count, so the `changeTime` a recipient
 * read stays current through its own steps (`check_contract_changed`).
 */
export function contentChangeTime(contract: ContractRecord): number {
  let at = contract.createTime;
  for (const h of contract.history) {
    const changed = h.detail?.changed;
    if (h.event === HISTORY.updated && Array.isArray(changed) && changed.some((f) => f !== 'name')) at = h.at;
  }
  return Math.floor(at / 1000) * 1000;
}

/**
 * A placeholder as `recipient_contract` lists it: the fields RecipientView reads (docs/compatibility.md). Recipients'
 * keys in it (`externalRecipientKey`, a special placeholder's `<key>_N`) are shown as the link's holder sees them.
 */
function placeholderItem(seen: (recipientKey: string | undefined) => string, p: PlaceholderRecord) {
  const special = p.recipientKey !== undefined && p.placeholderKey.startsWith(`${p.recipientKey}_`);
  return {
    id: Number(p.id),
    placeholderKey: special
      ? `${seen(p.recipientKey)}${p.placeholderKey.slice(p.recipientKey!.length)}`
      : p.placeholderKey,
    name: p.name,
    value: p.value,
    type: p.type,
    position: p.position,
    externalRecipientKey: seen(p.externalRecipientKey ?? p.recipientKey),
    view: placeholderBoxCode(p),
    isSpecial: p.isSpecial,
    specialType: p.specialType ?? null,
    fillingType: p.fillingType ?? '1',
    isTable: p.isTable ?? false,
    insertion: p.insertion,
    createTime: isoTime(p.createTime),
    changeTime: isoTime(p.changeTime),
  };
}

/**
 * `GET recipient_contract?shareLink=` (docs/compatibility.md). `contractValue` is an
 * HTML contract's content with its tags, for the component to fill, until the recipient is done, then the content
 * filled as the sandbox renders it; for a PDF contract, the URL of its file (`documentUrl`).
 */
export function recipientContract(
  ctx: OpContext,
  link: ResolvedShareLink,
  documentUrl: (contract: ContractRecord) => string,
) {
  const { contract, recipient } = link;
  const done = isDone(recipient);
  const type = contractTypeCode(contract);
  const client = ctx.store.clients.get(contract.clientKey);
  const placeholders = placeholdersOf(ctx, { contractKey: contract.contractKey }).sort(
    (a, b) => a.position - b.position || (a.specialType ?? 0) - (b.specialType ?? 0),
  );
  const seen = (key: string | undefined) => keyAsSeen(ctx, link, key);
  return {
    shareLink: link.shareLink,
    controlLink: contract.contractKey,
    contractName: contract.name,
    contractType: type,
    contractValue:
      type === CONTRACT_TYPE_CODES.pdf ? documentUrl(contract) : done ? contractValue(ctx, contract) : contract.value,
    view: link.view,
    isDone: done,
    audit: false,
    fullname: recipient.fullname ?? '',
    email: recipient.email ?? '',
    visiblePageBranding: client?.branding?.recipientPageBranding ?? true,
    isTest: true as const,
    statusId: statusId(contract.status) ?? null,
    statusName: contract.status,
    createTime: sqlTime(contract.createTime),
    changeTime: sqlTime(contentChangeTime(contract)),
    placeholders: placeholders.map((p) => placeholderItem(seen, p)),
  };
}

/** `GET recipient_contract_status?shareLink=`: the contract's status, as RecipientView's `onChange` passes it on. */
export function recipientContractStatus(link: ResolvedShareLink) {
  return { status: link.contract.status, statusId: statusId(link.contract.status) ?? null };
}

/** The N of the recipient's `<signN>`, `<dateN>`, `<fullnameN>`, `<emailN>` tags: its special placeholders' id. */
export function recipientTagId(ctx: OpContext, recipient: RecipientRecord): number {
  return Number(ctx.store.placeholders.get(specialKey(recipient.recipientKey, 4))?.id ?? recipient.id);
}

/** A signature as `recipient_sign` answers and lists it (docs/compatibility.md). */
function signatureItem(contract: ContractRecord, recipient: RecipientRecord, shareLink: string) {
  const step = [...contract.history]
    .reverse()
    .find((h) => h.event === HISTORY.signed && h.recipientKey === recipient.recipientKey);
  const given = step ? actedAs(step) : undefined;
  return {
    shareLink,
    base64: recipient.signature ?? '',
    createTime: isoTime(recipient.actedAt ?? contract.changeTime),
    fullName: given?.fullName ?? recipient.fullname ?? '',
    email: given?.email ?? recipient.email ?? '',
  };
}

/**
 * Every signature of a contract, in the order they were made: `GET recipient_sign?shareLink=` (the link's contract,
 * each signer's key as the link's holder sees it) and the owner's `GET contract_sign?contractKey=` answer this list.
 */
export function contractSignatures(ctx: OpContext, contract: ContractRecord, seenBy?: ResolvedShareLink) {
  return ctx.store.recipients
    .where('contract', contract.contractKey)
    .filter((r) => r.state === 'signed')
    .sort((a, b) => (a.actedAt ?? 0) - (b.actedAt ?? 0) || a.id - b.id)
    .map((r) => signatureItem(contract, r, seenBy ? keyAsSeen(ctx, seenBy, r.recipientKey) : r.recipientKey));
}

/**
 * `POST check_contract_changed {shareLink, changeTime, view}` (docs/compatibility.md): changed when the contract's
 * content changed after `changeTime` (then `contractValue` carries the content now), or when the link's view is no
 * longer `view` (the owner changed the recipient's role or the link). `view` is always the link's view now.
 */
export function contractChanged(
  ctx: OpContext,
  link: ResolvedShareLink,
  seen: { changeTime: string; view?: string | undefined },
): { changed: boolean; view: ShareLinkAccess; contractValue?: string } {
  const read = readTime(seen.changeTime);
  const contentChanged = contentChangeTime(link.contract) > read;
  const viewChanged = seen.view !== undefined && seen.view !== link.view;
  return {
    changed: contentChanged || viewChanged,
    view: link.view,
    ...(contentChanged ? { contractValue: currentContent(ctx, link) } : {}),
  };
}

function currentContent(ctx: OpContext, link: ResolvedShareLink): string {
  return contractTypeCode(link.contract) === CONTRACT_TYPE_CODES.pdf ? '' : contractValue(ctx, link.contract);
}

/** A time as the recipient side hands it out (`YYYY-MM-DD HH:MM:SS`, UTC) or in ISO 8601; 400 otherwise. */
function readTime(text: string): number {
  const ms = parseTime(text);
  if (!Number.isFinite(ms) || !/^\d{4}-\d{2}-\d{2}/.test(text)) {
    throw ApiError.badRequest(
      'changeTime must be the changeTime recipient_contract answered (YYYY-MM-DD HH:MM:SS, or ISO 8601)',
      [{ path: 'changeTime', message: 'Not a time' }],
    );
  }
  return ms;
}

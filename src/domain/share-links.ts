/**
 * Share links: what `/sharing/<link>` opens, and the extra links of a contract (`/api/contract_share_link`).
 * A recipient's own share link is its recipient key, as on the real service (docs/compatibility.md); the holder acts
 * as that recipient, in its role. The others are made by the contract's owner, each with a `view` that says what its
 * page lets the holder do: '1' sign, '2' approve, '3' lock, '4' view. Such a link is made with no recipient: the
 * first time its page opens, it opens as the contract's recipient in that role, the first (by id) that has not
 * finished, else the first, and it stays that recipient's link (docs/pages.md): posting its form again cannot act for
 * the next signer. A contract with no recipient in that role has nothing to open there.
 */
import { ApiError, quote } from '../core/errors.js';
import type {
  ClientRecord,
  ContractRecord,
  PlaceholderRecord,
  RecipientRecord,
  ShareLinkRecord,
} from '../store/records.js';
import type { OpContext } from './context.js';
import { assertOpen, findContract } from './contracts.js';
import { isDone, openPosition } from './lifecycle-rules.js';
import { SHARE_LINK_ACCESS, SHARE_LINK_ACCESS_OF_ROLE, type ShareLinkAccess } from '../core/vocabulary.js';

/** No source shows the access (`view`) of a new link; the sandbox's is the least a holder can do, viewing. */
export const DEFAULT_SHARE_LINK_ACCESS: ShareLinkAccess = '4';

/**
 * The contract a share-link write names: by its key, or by one of its links' `controlLink`, which the components'
 * link editor sends as `contractKey` (docs/compatibility.md, "Share links"). 404 as for any other unknown key.
 */
export function contractOfLinkRequest(ctx: OpContext, client: ClientRecord, key: string): ContractRecord {
  const byControlLink = ctx.store.shareLinks.where('controlLink', key)[0];
  return findContract(ctx, client, byControlLink ? byControlLink.contractKey : key);
}

/** The extra links of a contract, oldest first. */
export function shareLinksOf(ctx: OpContext, contract: ContractRecord): ShareLinkRecord[] {
  return ctx.store.shareLinks.where('contract', contract.contractKey).sort((a, b) => a.id - b.id);
}

export function createShareLink(
  ctx: OpContext,
  contract: ContractRecord,
  view: ShareLinkAccess = DEFAULT_SHARE_LINK_ACCESS,
): ShareLinkRecord {
  assertOpen(contract, 'take new share links');
  const now = ctx.clock.now();
  const id = Math.max(0, ...shareLinksOf(ctx, contract).map((l) => l.id)) + 1;
  return ctx.store.shareLinks.insert({
    shareLink: ctx.ids.key(),
    contractKey: contract.contractKey,
    clientKey: contract.clientKey,
    platformId: contract.platformId,
    id,
    controlLink: ctx.ids.key(),
    view,
    createTime: now,
    changeTime: now,
  });
}

/** One extra link of this contract, by its `id` (and its `shareLink` when given: both must match), or 404. */
export function findShareLink(
  ctx: OpContext,
  contract: ContractRecord,
  id: number,
  shareLink?: string,
): ShareLinkRecord {
  const link = shareLinksOf(ctx, contract).find((l) => l.id === id);
  if (!link || (shareLink !== undefined && link.shareLink !== shareLink)) {
    throw ApiError.notFound(`Share link ${quote(shareLink ?? String(id))} not found`);
  }
  return link;
}

export function changeShareLinkAccess(ctx: OpContext, link: ShareLinkRecord, view: ShareLinkAccess): ShareLinkRecord {
  // Another role is another recipient: the link is bound again the next time it opens.
  const rebind = view === link.view ? {} : { recipientKey: undefined };
  return ctx.store.shareLinks.update(link.shareLink, { view, changeTime: ctx.clock.now(), ...rebind });
}

export function deleteShareLink(ctx: OpContext, link: ShareLinkRecord): void {
  ctx.store.shareLinks.delete(link.shareLink);
}

/**
 * An extra link by its text, with its contract, or undefined when no such link exists (a recipientKey is resolved
 * by `resolveShareLink`). Tenant-agnostic, as the page is: the link is the credential.
 */
export function resolveExtraShareLink(
  ctx: OpContext,
  shareLink: string,
): { link: ShareLinkRecord; contract: ContractRecord } | undefined {
  const link = ctx.store.shareLinks.get(shareLink);
  const contract = link ? ctx.store.contracts.get(link.contractKey) : undefined;
  return link && contract ? { link, contract } : undefined;
}

export interface ResolvedShareLink {
  recipient: RecipientRecord;
  contract: ContractRecord;
  /** What the link lets its holder do: the link's own view, or for a recipient's own link its role's. */
  view: ShareLinkAccess;
}

/**
 * The recipient and contract a link opens, or undefined when no link has this value (the page answers 404). An extra
 * link opening for the first time becomes the link of the recipient it opens as.
 */
export function resolveShareLink(ctx: OpContext, link: string): ResolvedShareLink | undefined {
  const recipient = ctx.store.recipients.get(link);
  const contract = recipient ? ctx.store.contracts.get(recipient.contractKey) : undefined;
  if (recipient && contract) return { recipient, contract, view: SHARE_LINK_ACCESS_OF_ROLE[recipient.action] };
  const extra = resolveExtraShareLink(ctx, link);
  if (!extra) return undefined;
  if (extra.link.recipientKey !== undefined) {
    const own = ctx.store.recipients.get(extra.link.recipientKey);
    return own && own.contractKey === extra.contract.contractKey
      ? { recipient: own, contract: extra.contract, view: extra.link.view }
      : undefined;
  }
  const role = SHARE_LINK_ACCESS[extra.link.view];
  const inRole = ctx.store.recipients
    .where('contract', extra.contract.contractKey)
    .filter((r) => r.action === role)
    .sort((a, b) => a.id - b.id);
  const holder = inRole.find((r) => !isDone(r)) ?? inRole[0];
  if (!holder) return undefined;
  // From its first opening on, the link is this recipient's (every door: the page, the recipient endpoints).
  ctx.store.shareLinks.update(extra.link.shareLink, { recipientKey: holder.recipientKey });
  return { recipient: holder, contract: extra.contract, view: extra.link.view };
}

/** As resolveShareLink, for the API's recipient side: an unknown link answers 404. */
export function openShareLink(ctx: OpContext, link: string): ResolvedShareLink {
  const resolved = resolveShareLink(ctx, link);
  if (!resolved) throw ApiError.notFound('Share link not found');
  return resolved;
}

/** What a share link's page shows: the recipient and contract it opens, every recipient (whose turn it is), the placeholders. */
export interface SharePage extends ResolvedShareLink {
  recipients: RecipientRecord[];
  placeholders: PlaceholderRecord[];
  openPosition?: number;
}

/** The page a share link opens (`/sharing/<link>`), or undefined for an unknown link. */
export function sharePage(ctx: OpContext, link: string): SharePage | undefined {
  const resolved = resolveShareLink(ctx, link);
  if (!resolved) return undefined;
  const { store } = ctx;
  const recipients = store.recipients.where('contract', resolved.contract.contractKey).sort((a, b) => a.id - b.id);
  const open = openPosition(recipients);
  return {
    ...resolved,
    recipients,
    placeholders: store.placeholders.where('contract', resolved.contract.contractKey),
    ...(open !== undefined ? { openPosition: open } : {}),
  };
}

/**
 * Extra share links of a contract (`/api/contract_share_link` [C:share-link-block.tsx], [C:share-link-line.tsx]).
 * Every recipient has its own link, its recipientKey (real-service.md: `…/sharing/{recipientKey or shareLink}`); these
 * are the others, made by the contract's owner, each with a `view` that says what its page lets the holder do
 * (decisions §11): '1' sign, '2' approve, '3' lock, '4' view.
 */
import { ApiError, quote } from '../core/errors.js';
import type { OpContext } from './context.js';
import type { ContractRecord, ShareLinkRecord } from '../store/records.js';
import { assertOpen, findContract } from './contracts.js';
import type { ClientRecord } from '../store/records.js';

export type ShareLinkView = ShareLinkRecord['view'];

/** No source shows the view of a new link; the sandbox's is the least a holder can do, viewing. */
export const DEFAULT_SHARE_LINK_VIEW: ShareLinkView = '4';

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
  view: ShareLinkView = DEFAULT_SHARE_LINK_VIEW,
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

export function changeShareLinkView(ctx: OpContext, link: ShareLinkRecord, view: ShareLinkView): ShareLinkRecord {
  return ctx.store.shareLinks.update(link.shareLink, { view, changeTime: ctx.clock.now() });
}

export function deleteShareLink(ctx: OpContext, link: ShareLinkRecord): void {
  ctx.store.shareLinks.delete(link.shareLink);
}

/**
 * For the recipient page's resolver: an extra link by its text, with its contract, or undefined when no such link
 * exists (a recipientKey is resolved by share-links.ts). Tenant-agnostic, as the page is: the link is the credential.
 */
export function resolveExtraShareLink(
  ctx: OpContext,
  shareLink: string,
): { link: ShareLinkRecord; contract: ContractRecord } | undefined {
  const link = ctx.store.shareLinks.get(shareLink);
  const contract = link ? ctx.store.contracts.get(link.contractKey) : undefined;
  return link && contract ? { link, contract } : undefined;
}

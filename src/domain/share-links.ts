/**
 * Share links: what `/sharing/<link>` opens. A recipient's own share link is its recipient key, as on the real
 * service ("Share/recipient link …/sharing/{recipientKey or shareLink}" [C:config.ts]); the holder acts as that
 * recipient, in its role. A link made with `contract_share_link` carries a `view` ('1' sign, '2' approve, '3' lock,
 * '4' view; decisions §11) and no recipient: it opens as the contract's recipient in that role, the first (by id)
 * that has not finished, else the first; a contract with no recipient in that role has nothing to open there.
 */
import type { OpContext } from './context.js';
import { ApiError } from '../core/errors.js';
import { resolveExtraShareLink } from './contract-share-links.js';
import { isDone } from './lifecycle-rules.js';
import type { ContractRecord, RecipientRecord } from '../store/records.js';
import { SHARE_LINK_VIEWS, SHARE_LINK_VIEW_OF_ROLE, type ShareLinkView } from '../core/vocabulary.js';

export interface ResolvedShareLink {
  recipient: RecipientRecord;
  contract: ContractRecord;
  /** What the link lets its holder do: the link's own view, or for a recipient's own link its role's. */
  view: ShareLinkView;
}

/** The recipient and contract a link opens, or undefined when no link has this value (the page answers 404). */
export function resolveShareLink(ctx: OpContext, link: string): ResolvedShareLink | undefined {
  const recipient = ctx.store.recipients.get(link);
  const contract = recipient ? ctx.store.contracts.get(recipient.contractKey) : undefined;
  if (recipient && contract) return { recipient, contract, view: SHARE_LINK_VIEW_OF_ROLE[recipient.action] };
  const extra = resolveExtraShareLink(ctx, link);
  if (!extra) return undefined;
  const role = SHARE_LINK_VIEWS[extra.link.view];
  const inRole = ctx.store.recipients
    .where('contract', extra.contract.contractKey)
    .filter((r) => r.action === role)
    .sort((a, b) => a.id - b.id);
  const holder = inRole.find((r) => !isDone(r)) ?? inRole[0];
  return holder ? { recipient: holder, contract: extra.contract, view: extra.link.view } : undefined;
}

/** As resolveShareLink, for the API's recipient side: an unknown link answers 404. */
export function openShareLink(ctx: OpContext, link: string): ResolvedShareLink {
  const resolved = resolveShareLink(ctx, link);
  if (!resolved) throw ApiError.notFound('Share link not found');
  return resolved;
}

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
  /** The link as its holder sent it: the recipient's key, or an extra link. */
  shareLink: string;
  recipient: RecipientRecord;
  contract: ContractRecord;
  /** What the link lets its holder do (`accessOf`): what the answers say, the change check compares, the acts obey. */
  view: ShareLinkAccess;
}

/**
 * The one rule for what a link lets its holder do (docs/compatibility.md, "Share links"). A recipient's own link acts
 * in the recipient's role. An extra link acts in its own `view` while that is the recipient's role; once the owner
 * gives the recipient another role, the link only views ('4'): a view-only link never signs, whatever its recipient
 * becomes, and a signing link does not approve.
 */
function accessOf(recipient: RecipientRecord, extraView?: ShareLinkAccess): ShareLinkAccess {
  const own = SHARE_LINK_ACCESS_OF_ROLE[recipient.action];
  return extraView === undefined || extraView === own ? own : '4';
}

/**
 * Refuses (409) any act but viewing through a link that only views because its recipient's role changed
 * (`accessOf`); `what` names the act. A link in its recipient's role leaves the act to the lifecycle's rules (role,
 * turn, once), which say why in their own words.
 */
export function assertLinkActs(link: ResolvedShareLink, what: string): void {
  const role = link.recipient.action;
  if (link.view === SHARE_LINK_ACCESS_OF_ROLE[role]) return;
  throw ApiError.conflict(
    `This share link only views (view "${link.view}"): its recipient has the role "${role}", which the link was not ` +
      `made for, so it cannot ${what}; the contract's owner can change the link with contract_share_link ` +
      `(view: 1 sign, 2 approve, 3 lock, 4 view)`,
  );
}

/**
 * A recipient's key as the holder of `link` sees it in answers (placeholders' `externalRecipientKey`, signatures' and
 * audit rows' `shareLink`): the link itself for its own recipient, so the vendor's component finds its own fields by
 * `externalRecipientKey === shareLink`; for every other recipient an alias (`recipient-<id>`), which is not a key and
 * opens nothing: another recipient's key is its share link, and would let one holder act as the others
 * (docs/compatibility.md, "Share links").
 */
export function keyAsSeen(ctx: OpContext, link: ResolvedShareLink, recipientKey: string | undefined): string {
  if (recipientKey === undefined || recipientKey === '') return '';
  if (recipientKey === link.recipient.recipientKey) return link.shareLink;
  const other = ctx.store.recipients.get(recipientKey);
  return other && other.contractKey === link.contract.contractKey ? `recipient-${other.id}` : '';
}

/**
 * The recipient and contract a link opens, or undefined when no link has this value (the page answers 404). An extra
 * link opening for the first time becomes the link of the recipient it opens as. The holder of a link acts in the
 * contract's tenant, on its clock: `ctx` is built in the link's tenant (domain/request-facts.ts `shareLinkTenant`).
 */
export function resolveShareLink(ctx: OpContext, link: string): ResolvedShareLink | undefined {
  const recipient = ctx.store.recipients.get(link);
  const contract = recipient ? ctx.store.contracts.get(recipient.contractKey) : undefined;
  if (recipient && contract) return { shareLink: link, recipient, contract, view: accessOf(recipient) };
  const extra = resolveExtraShareLink(ctx, link);
  if (!extra) return undefined;
  if (extra.link.recipientKey !== undefined) {
    const own = ctx.store.recipients.get(extra.link.recipientKey);
    return own && own.contractKey === extra.contract.contractKey
      ? { shareLink: link, recipient: own, contract: extra.contract, view: accessOf(own, extra.link.view) }
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
  return { shareLink: link, recipient: holder, contract: extra.contract, view: accessOf(holder, extra.link.view) };
}

/**
 * What the API's recipient side does with a link: opens it as resolveShareLink does (404 for an unknown link) and runs
 * what its holder asked for, every refusal reaching the holder as `refusalAsSeen` words it.
 */
export function throughShareLink<T>(ctx: OpContext, shareLink: string, act: (link: ResolvedShareLink) => T): T {
  const link = resolveShareLink(ctx, shareLink);
  if (!link) throw ApiError.notFound('Share link not found');
  try {
    return act(link);
  } catch (error) {
    throw error instanceof ApiError ? refusalAsSeen(ctx, link, error) : error;
  }
}

/**
 * A refusal as the holder of `link` reads it: every key of the contract's recipients in its message and field errors
 * said as `keyAsSeen` says it (an alias `recipient-<id>` for the others, the link itself for its own recipient), so
 * `<key>_N` placeholder keys become `<alias>_N` as in the answers. The rules that refuse (the lifecycle's turn, role and
 * once; the link's own acts) name recipients by key for the owner and the control API; through a link, another
 * recipient's key, or the key of an extra link's recipient, is a share link the holder was not given
 * (docs/compatibility.md, "Share links").
 */
export function refusalAsSeen(ctx: OpContext, link: ResolvedShareLink, error: ApiError): ApiError {
  const keys = ctx.store.recipients
    .where('contract', link.contract.contractKey)
    .map((r) => r.recipientKey)
    .filter((key) => key !== link.shareLink);
  const said = (text: string) =>
    keys.reduce((out, key) => (out.includes(key) ? out.replaceAll(key, keyAsSeen(ctx, link, key)) : out), text);
  const message = said(error.message);
  const errors = error.errors?.map((e) => ({ path: said(e.path), message: said(e.message) }));
  const changed =
    message !== error.message ||
    errors?.some((e, i) => e.path !== error.errors![i]!.path || e.message !== error.errors![i]!.message);
  return changed ? new ApiError(error.status, message, errors, error.headers) : error;
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

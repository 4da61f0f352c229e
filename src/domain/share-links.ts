/**
 * Share links: what `/sharing/<link>` opens. A recipient's own share link is its recipient key, as on the real
 * service ("Share/recipient link …/sharing/{recipientKey or shareLink}" [C:config.ts]); the holder acts as that
 * recipient, in its role.
 */
import type { OpContext } from './context.js';
import type { ContractRecord, RecipientRecord } from '../store/records.js';

export interface ResolvedShareLink {
  recipient: RecipientRecord;
  contract: ContractRecord;
}

/** The recipient and contract a link opens, or undefined when no link has this value (the page answers 404). */
export function resolveShareLink(ctx: OpContext, link: string): ResolvedShareLink | undefined {
  const recipient = ctx.store.recipients.get(link);
  const contract = recipient ? ctx.store.contracts.get(recipient.contractKey) : undefined;
  return recipient && contract ? { recipient, contract } : undefined;
}

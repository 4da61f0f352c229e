/**
 * The outbox (docs/lifecycle.md, "Emails"): the sandbox sends no mail; it keeps what the service would have sent, in memory.
 * It only listens to the bus: `recipient.notified` gives the request emails, `contract.signed` / `contract.approved`
 * the notices to the contract's user (unless the client switched them off with `email_notifications`),
 * `recipient.confirmed` a recipient's confirmation of its own act.
 *
 * Bounded: at most `cap` emails (default 10,000); the oldest are dropped first, so a long-running sandbox cannot
 * grow without limit. Cleared by `sandbox.reset` (only that platform's emails when the reset names one).
 */
import type { Keeper } from '../core/kept.js';
import type { Services } from '../store/services.js';
import type { ContractEvent } from '../core/events.js';
import type { RecipientRecord } from '../store/records.js';
import { isoTime } from '../core/time-format.js';
import { allSigned } from '../domain/lifecycle-rules.js';
import { recipientLink } from '../domain/links.js';
import {
  type EmailKind,
  REQUEST_KIND,
  confirmationSubject,
  confirmationText,
  defaultMessage,
  noticeSubject,
  noticeText,
  requestSubject,
  requestText,
  senderName,
} from './messages.js';

export const DEFAULT_OUTBOX_CAP = 10_000;

export interface Email {
  /** `email-<n>`, in the order captured. */
  id: string;
  kind: EmailKind;
  to: string;
  toName?: string;
  subject: string;
  /** Request emails: the recipient's custom message, or the default one. */
  message?: string;
  /** The whole plain-text body. */
  text: string;
  /** Request emails: the recipient's page on the sandbox, `<baseUrl>/sharing/<recipientKey>`. */
  link?: string;
  contractKey: string;
  clientKey: string;
  recipientKey?: string;
  /** Sandbox time, ISO 8601. */
  sentAt: string;
  /** What caused it: `api`, `control`, or a scenario rule or step. */
  cause?: string;
}

export interface EmailFilter {
  to?: string | undefined;
  contractKey?: string | undefined;
  recipientKey?: string | undefined;
  kind?: string | undefined;
}

interface Stored {
  platformId: string;
  email: Email;
}

export class Outbox {
  /** By id, oldest first. */
  private readonly emails = new Map<string, Stored>();
  private counter = 0;
  private readonly unsubscribe: Array<() => void>;
  /** The outbox is kept across a restart with --data (core/kept.ts). */
  private readonly keeper: Keeper;

  constructor(
    private readonly services: Services,
    private readonly options: { baseUrl: () => string; cap?: number },
  ) {
    const { bus } = services;
    this.keeper = services.store.keep('emails', {
      record: (id) => this.emails.get(id),
      keys: () => this.emails.keys(),
      restore: (id, stored) => {
        this.emails.set(id, stored as Stored);
        this.counter = Math.max(this.counter, Number(id.replace(/^email-/, '')) || 0);
      },
      clear: () => this.emails.clear(),
    });
    this.unsubscribe = [
      bus.on('recipient.notified', (e) => this.requestFor(e.platformId, e.recipientKey, e.cause)),
      bus.on('contract.signed', (e) => this.noticeFor(e, 'sign')),
      bus.on('contract.approved', (e) => this.noticeFor(e, 'approve')),
      bus.on('recipient.confirmed', (e) => this.confirmationFor(e.platformId, e.recipientKey, e.role, e.cause)),
      bus.on('sandbox.reset', (e) => this.clear(e.platformId)),
    ];
  }

  /**
   * Captured emails, oldest first (of one tenant when `platformId` is given). `to` matches case-insensitively; the
   * other filters match exactly.
   */
  list(filter: EmailFilter = {}, platformId?: string): Email[] {
    const to = filter.to?.toLowerCase();
    const out: Email[] = [];
    for (const { email, platformId: owner } of this.emails.values()) {
      if (platformId !== undefined && owner !== platformId) continue;
      if (to !== undefined && email.to.toLowerCase() !== to) continue;
      if (filter.contractKey !== undefined && email.contractKey !== filter.contractKey) continue;
      if (filter.recipientKey !== undefined && email.recipientKey !== filter.recipientKey) continue;
      if (filter.kind !== undefined && email.kind !== filter.kind) continue;
      out.push({ ...email });
    }
    return out;
  }

  /** Empties the outbox, or only one platform's emails. */
  clear(platformId?: string): void {
    for (const [id, e] of this.emails) if (platformId === undefined || e.platformId === platformId) this.drop(id);
    if (platformId === undefined) this.counter = 0;
  }

  get size(): number {
    return this.emails.size;
  }

  get cap(): number {
    return this.options.cap ?? DEFAULT_OUTBOX_CAP;
  }

  dispose(): void {
    for (const off of this.unsubscribe) off();
  }

  private capture(platformId: string, email: Omit<Email, 'id' | 'sentAt'>): void {
    const id = `email-${++this.counter}`;
    this.emails.set(id, {
      platformId,
      email: { id, ...email, sentAt: isoTime(this.services.clocks.of(platformId).now()) },
    });
    this.keeper.changed(id);
    for (const oldest of this.emails.keys()) {
      if (this.emails.size <= this.cap) break;
      this.drop(oldest);
    }
  }

  private drop(id: string): void {
    this.emails.delete(id);
    this.keeper.changed(id);
  }

  private requestFor(platformId: string, recipientKey: string, cause: string | undefined): void {
    const { store } = this.services;
    const recipient = store.recipients.get(recipientKey);
    const contract = recipient ? store.contracts.get(recipient.contractKey) : undefined;
    if (!recipient || !contract || !recipient.email) return;
    const client = store.clients.get(contract.clientKey);
    const sender = senderName(client, store.users.get(contract.userKey));
    const message = recipient.customMessage || defaultMessage(sender, contract, recipient.action);
    const link = recipientLink(this.options.baseUrl(), recipientKey);
    this.capture(platformId, {
      kind: REQUEST_KIND[recipient.action],
      to: recipient.email,
      ...(recipient.fullname ? { toName: recipient.fullname } : {}),
      subject: requestSubject(contract, recipient.action),
      message,
      text: requestText(recipient, message, link),
      link,
      contractKey: contract.contractKey,
      clientKey: contract.clientKey,
      recipientKey,
      ...(cause !== undefined ? { cause } : {}),
    });
  }

  private confirmationFor(
    platformId: string,
    recipientKey: string,
    role: 'sign' | 'approve',
    cause: string | undefined,
  ): void {
    const { store } = this.services;
    const recipient = store.recipients.get(recipientKey);
    const contract = recipient ? store.contracts.get(recipient.contractKey) : undefined;
    if (!recipient || !contract || !recipient.email) return;
    const link = recipientLink(this.options.baseUrl(), recipientKey);
    this.capture(platformId, {
      kind: role === 'sign' ? 'sign_confirmation' : 'approve_confirmation',
      to: recipient.email,
      ...(recipient.fullname ? { toName: recipient.fullname } : {}),
      subject: confirmationSubject(contract, role),
      text: confirmationText(recipient, contract, role, link),
      link,
      contractKey: contract.contractKey,
      clientKey: contract.clientKey,
      recipientKey,
      ...(cause !== undefined ? { cause } : {}),
    });
  }

  private noticeFor(event: ContractEvent, role: 'sign' | 'approve'): void {
    const { store } = this.services;
    const contract = store.contracts.get(event.data.contractKey);
    const client = contract ? store.clients.get(contract.clientKey) : undefined;
    if (!contract || !client) return;
    if (!(role === 'sign' ? client.notification.signed : client.notification.approved)) return;
    const user = store.users.get(contract.userKey);
    // A user without an address gets nothing: the service would have nowhere to send it.
    if (!user?.email) return;
    const recipient: RecipientRecord | undefined = event.data.recipientKey
      ? store.recipients.get(event.data.recipientKey)
      : undefined;
    const fullySigned = role === 'sign' && allSigned(store.recipients.where('contract', contract.contractKey));
    this.capture(event.platformId, {
      kind: role === 'sign' ? 'contract_signed' : 'contract_approved',
      to: user.email,
      ...(user.fullname ? { toName: user.fullname } : {}),
      subject: noticeSubject(contract, role, fullySigned),
      text: noticeText(contract, recipient, role, fullySigned),
      contractKey: contract.contractKey,
      clientKey: contract.clientKey,
      ...(event.data.recipientKey ? { recipientKey: event.data.recipientKey } : {}),
      ...(event.cause !== undefined ? { cause: event.cause } : {}),
    });
  }
}

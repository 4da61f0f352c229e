/**
 * The contract lifecycle (docs/lifecycle.md): sending, recipients taking their turn, acting, and the contract status
 * that follows. What a recipient may do is decided by the table in lifecycle-rules.ts; this file applies it.
 *
 * Every operation first writes all its changes (recipients, placeholders, status, history) and only then emits its
 * events, in order. A subscriber that reacts at once (a scenario acting on `recipient.notified`) therefore always
 * sees a consistent contract, and can re-enter `actAsRecipient` safely.
 */
import type { OpContext } from './context.js';
import { emitContractEvent } from './context.js';
import { ApiError } from '../core/errors.js';
import type { ContractRecord, RecipientRecord } from '../store/records.js';
import {
  type ContractStatus,
  HISTORY,
  ROLE_OUTCOME,
  RECIPIENT_ROLES,
  type RecipientRole,
  STATUS,
  pastTense,
  specialKey,
} from '../core/vocabulary.js';
import { isoTime } from '../core/time-format.js';
import { type NewHistoryEntry, assertOpen, contractEventData, recordHistory } from './contracts.js';
import {
  RECIPIENT_RULES,
  type Refusal,
  advanceStatus,
  allSigned,
  hasSeen,
  hasTurn,
  isDone,
  openPosition,
  verbKind,
} from './lifecycle-rules.js';
import { type RecipientFields, deleteRecipient, findRecipient, recipientsOf, updateRecipient } from './recipients.js';
import { checkSignature, generatedSignature } from './signatures.js';

type Emit = () => void;

export interface ActOptions {
  /** For `sign`: a text signature or an image data URI; a generated SVG signature otherwise. */
  signature?: string | undefined;
  /** The address the act came from, written into its history entries (the audit trail's `ipInfo`). */
  ip?: string | undefined;
  /**
   * What a client sent about the act (the vendor's RecipientView: the name and email typed in its sign and approve
   * dialogs, and `ipInfo`, a JSON string of the browser's location): kept in the history entries' `detail`, shown in
   * the audit trail, the signed PDF and the dashboard; the name and email fill the special placeholders.
   */
  signer?: { fullName: string; email: string } | undefined;
  ipInfo?: string | undefined;
}

/**
 * Sends a contract, or sends it again. The first send moves `Created` to `Sent`; every send records a `sent`
 * history entry and emits `contract.sent`. Recipients whose turn it is and who have not been notified are notified;
 * recipients already notified who have not finished are notified again (a reminder). Finished recipients are left
 * alone, and the status never moves back.
 */
export function sendContract(ctx: OpContext, contract: ContractRecord): void {
  assertOpen(contract, 'be sent');
  const recipients = recipientsOf(ctx, contract.contractKey);
  if (recipients.length === 0) {
    throw ApiError.conflict('Contract has no recipients; send data.recipients to add them');
  }
  if (recipients.every(isDone)) {
    throw ApiError.conflict('Every recipient of this contract has already acted; there is nobody left to send it to');
  }
  const status = advanceStatus(contract.status, STATUS.sent);
  recordHistory(
    ctx,
    contract,
    {
      event: HISTORY.sent,
      status,
      detail: {
        recipients: recipients.map((r) => ({
          recipientKey: r.recipientKey,
          email: r.email ?? '',
          action: r.action,
          position: r.position,
        })),
      },
    },
    { status },
  );
  const emits: Emit[] = [
    () => emitContractEvent(ctx, 'contract.sent', contract.platformId, eventData(ctx, contract, status)),
  ];
  settle(ctx, contract, emits, { renotify: true });
  run(emits);
}

/**
 * Acts as a recipient: `view`, or the verb of its role. Looks the recipient up across the whole store (the control
 * API and scenarios are tenant-agnostic); with `ctx.client` set, recipients of other clients answer 404.
 */
export function actAsRecipient(
  ctx: OpContext,
  recipientKey: string,
  verb: RecipientRole,
  options: ActOptions = {},
): RecipientRecord {
  const recipient = ctx.store.recipients.get(recipientKey);
  if (!recipient || (ctx.client && ctx.client.clientKey !== recipient.clientKey))
    throw ApiError.notFound('Recipient not found');
  if (!RECIPIENT_ROLES.includes(verb))
    throw ApiError.badRequest(`Unknown verb "${String(verb)}"; use one of ${RECIPIENT_ROLES.join(', ')}`);
  if (options.signature !== undefined && verb !== 'sign')
    throw ApiError.badRequest(`A signature only goes with sign, not ${verb}`);
  const signature = options.signature !== undefined ? checkSignature(options.signature) : undefined;
  const contract = ctx.store.contracts.get(recipient.contractKey);
  if (!contract) throw ApiError.notFound('Recipient not found');
  if (contract.status === STATUS.archived)
    throw ApiError.conflict(`Contract ${contract.contractKey} is archived; its recipients cannot ${verb}`);

  const cell = RECIPIENT_RULES[recipient.state][verbKind(recipient.action, verb)];
  if ('refuse' in cell) throw ApiError.conflict(refusalMessage(ctx, contract, recipient, verb, cell.refuse));

  const now = ctx.clock.now();
  const emits: Emit[] = [];
  const key = recipient.recipientKey;
  const ip = {
    ...(options.ip !== undefined ? { ip: options.ip } : {}),
    ...(options.ipInfo !== undefined ? { detail: { ipInfo: options.ipInfo } } : {}),
  };
  const acted = options.signer ? { ...ip, detail: { ...ip.detail, ...options.signer } } : ip;
  // Acting implies viewing: the first view is its own step, with its own event.
  if (!hasSeen(recipient)) {
    ctx.store.recipients.update(key, { state: 'seen', seenAt: now, changeTime: now });
    const status = step(ctx, contract, { event: HISTORY.seen, recipientKey: key, ...ip }, STATUS.seen);
    emits.push(() =>
      emitContractEvent(ctx, 'contract.seen', contract.platformId, eventData(ctx, contract, status, key)),
    );
  }
  if (cell.to === 'outcome') {
    recordOutcome(ctx, contract, recipient, { now, signature, from: acted, signer: options.signer }, emits);
    settle(ctx, contract, emits, { renotify: false });
  }
  run(emits);
  return ctx.store.recipients.get(key)!;
}

/** An act as it is written down: when, a signer's signature (checked), where it came from, whom the client named. */
interface Outcome {
  now: number;
  signature: string | undefined;
  from: Pick<NewHistoryEntry, 'ip' | 'detail'>;
  signer: ActOptions['signer'];
}

/**
 * The act itself, the recipient having seen the contract: its role's outcome on the recipient (a signer's signature
 * and special placeholders too), the history step with the status it leads to, and the role's event queued.
 */
function recordOutcome(
  ctx: OpContext,
  contract: ContractRecord,
  recipient: RecipientRecord,
  outcome: Outcome,
  emits: Emit[],
): void {
  const role = recipient.action;
  const key = recipient.recipientKey;
  const { now, signature } = outcome;
  ctx.store.recipients.update(key, {
    state: ROLE_OUTCOME[role].done,
    actedAt: now,
    changeTime: now,
    ...(role === 'sign' ? { signature: signature ?? generatedSignature(recipient) } : {}),
  });
  if (role === 'sign') fillSpecialPlaceholders(ctx, ctx.store.recipients.get(key)!, outcome.signer);
  const status = step(
    ctx,
    contract,
    { event: ROLE_OUTCOME[role].done, recipientKey: key, ...outcome.from },
    ROLE_OUTCOME[role].status,
  );
  if (role === 'sign')
    emits.push(() =>
      emitContractEvent(ctx, 'contract.signed', contract.platformId, eventData(ctx, contract, status, key)),
    );
  if (role === 'approve')
    emits.push(() =>
      emitContractEvent(ctx, 'contract.approved', contract.platformId, eventData(ctx, contract, status, key)),
    );
}

/**
 * After recipients of a sent contract were updated or deleted: the turn may have moved (a blocking recipient
 * removed or repositioned), and the contract may now be complete (the last unsigned signer removed).
 */
export function recipientsChanged(ctx: OpContext, contract: ContractRecord, entry: NewHistoryEntry): void {
  recordHistory(ctx, contract, { ...entry, status: contract.status });
  if (contract.status === STATUS.created || contract.status === STATUS.archived) return;
  const emits: Emit[] = [];
  settle(ctx, contract, emits, { renotify: false });
  run(emits);
}

/** Changes one recipient of an open contract (recipient `update`); the turn may move as a result. */
export function changeRecipient(
  ctx: OpContext,
  contract: ContractRecord,
  recipientKey: string,
  fields: RecipientFields,
): RecipientRecord {
  assertOpen(contract, 'change recipients');
  const current = findRecipient(ctx, contract, recipientKey);
  assertKeepsFullySigned(contract, { current: current.action, action: fields.action });
  const recipient = updateRecipient(ctx, current, fields);
  const changed = Object.keys(fields).filter((k) => (fields as Record<string, unknown>)[k] !== undefined);
  recipientsChanged(ctx, contract, { event: HISTORY.recipientUpdated, recipientKey, detail: { changed } });
  return recipient;
}

/** Removes one recipient of an open contract (recipient `delete`); the contract may now be complete. */
export function removeRecipient(ctx: OpContext, contract: ContractRecord, recipientKey: string): void {
  assertOpen(contract, 'change recipients');
  const recipient = findRecipient(ctx, contract, recipientKey);
  deleteRecipient(ctx, recipient);
  recipientsChanged(ctx, contract, { event: HISTORY.recipientDeleted, recipientKey: recipient.recipientKey });
}

/**
 * A fully signed contract stays fully signed: it takes no new `sign` recipient (a new recipient's role defaults to
 * sign) and no recipient changes its role to sign. Viewers, approvers and lockers may still be added.
 */
export function assertKeepsFullySigned(
  contract: ContractRecord,
  change: { current?: RecipientRole | undefined; action?: RecipientRole | undefined },
): void {
  if (contract.status !== STATUS.fullySigned) return;
  const becomesSigner =
    change.current === undefined
      ? (change.action ?? 'sign') === 'sign'
      : change.action === 'sign' && change.current !== 'sign';
  if (becomesSigner) {
    throw ApiError.conflict(
      'Contract is fully signed; it takes no new sign recipient (add view, approve or lock recipients instead)',
    );
  }
}

/** Applies one step: history entry plus the status it leads to. Returns the new status. */
function step(
  ctx: OpContext,
  contract: ContractRecord,
  entry: Omit<NewHistoryEntry, 'status'>,
  stepStatus: ContractStatus,
): ContractStatus {
  const status = advanceStatus(contract.status, stepStatus);
  recordHistory(ctx, contract, { ...entry, status }, { status });
  return status;
}

/** Brings a sent contract up to date: role changes, completion, whose turn it is. Queues the events. */
function settle(ctx: OpContext, contract: ContractRecord, emits: Emit[], options: { renotify: boolean }): void {
  const now = ctx.clock.now();
  // A recipient that had seen the contract and was then made a `view` recipient has done its part.
  for (const r of recipientsOf(ctx, contract.contractKey)) {
    if (r.action === 'view' && r.state === 'seen') {
      ctx.store.recipients.update(r.recipientKey, { state: 'viewed', actedAt: now, changeTime: now });
      recordHistory(ctx, contract, { event: HISTORY.viewed, recipientKey: r.recipientKey, status: contract.status });
    }
  }
  if (contract.status !== STATUS.fullySigned && allSigned(recipientsOf(ctx, contract.contractKey))) {
    const status = step(ctx, contract, { event: HISTORY.fullySigned }, STATUS.fullySigned);
    emits.push(() =>
      emitContractEvent(ctx, 'contract.fully_signed', contract.platformId, eventData(ctx, contract, status)),
    );
  }
  notifyDue(ctx, contract, emits, options.renotify);
}

/** Notifies every waiting recipient whose turn it is; with `renotify`, reminds those notified but not done. */
function notifyDue(ctx: OpContext, contract: ContractRecord, emits: Emit[], renotify: boolean): void {
  const recipients = recipientsOf(ctx, contract.contractKey);
  const open = openPosition(recipients);
  const now = ctx.clock.now();
  for (const r of recipients) {
    if (isDone(r)) continue;
    const first = r.state === 'waiting';
    if (first ? !hasTurn(r, open) : !renotify) continue;
    if (first) ctx.store.recipients.update(r.recipientKey, { state: 'notified', notifiedAt: now, changeTime: now });
    recordHistory(ctx, contract, {
      event: HISTORY.notified,
      recipientKey: r.recipientKey,
      status: contract.status,
      ...(first ? {} : { detail: { reminder: true } }),
    });
    const { recipientKey } = r;
    emits.push(() =>
      ctx.bus.emit({
        type: 'recipient.notified',
        platformId: contract.platformId,
        contractKey: contract.contractKey,
        clientKey: contract.clientKey,
        recipientKey,
        cause: ctx.cause,
      }),
    );
  }
}

function run(emits: Emit[]): void {
  for (const emit of emits) emit();
}

function eventData(ctx: OpContext, contract: ContractRecord, status: ContractStatus, recipientKey?: string) {
  return contractEventData(
    contract,
    status,
    recipientKey !== undefined ? (ctx.store.recipients.get(recipientKey) ?? { recipientKey }) : undefined,
  );
}

function refusalMessage(
  ctx: OpContext,
  contract: ContractRecord,
  r: RecipientRecord,
  verb: RecipientRole,
  refusal: Refusal,
): string {
  switch (refusal) {
    case 'not-notified': {
      if (contract.status === STATUS.created)
        return `Recipient ${r.recipientKey} cannot ${verb} yet: the contract has not been sent`;
      const open = openPosition(recipientsOf(ctx, contract.contractKey));
      if (open !== undefined && r.position !== undefined && r.position > open) {
        return `Recipient at position ${r.position} cannot ${verb} before position ${open} is done`;
      }
      return `Recipient ${r.recipientKey} cannot ${verb} yet: it has not been notified`;
    }
    case 'already-viewed':
      return `Recipient ${r.recipientKey} has already viewed the contract; each recipient views once`;
    case 'already-acted':
      return `Recipient ${r.recipientKey} has already ${pastTense(r.action)} the contract`;
    case 'wrong-role':
      return r.action === 'view'
        ? `Recipient ${r.recipientKey} has the role "view"; it can only view, not ${verb}`
        : `Recipient ${r.recipientKey} has the role "${r.action}"; it can ${r.action} or view, not ${verb}`;
  }
}

/**
 * Special placeholders 1..4 get their values on signing (docs/lifecycle.md): the name and email the signer gave, when a
 * client sent them, else the recipient's; their insertions stay as placed.
 */
function fillSpecialPlaceholders(ctx: OpContext, recipient: RecipientRecord, signer: ActOptions['signer']): void {
  const now = ctx.clock.now();
  const values = {
    1: isoTime(recipient.actedAt ?? now),
    2: signer?.fullName ?? recipient.fullname ?? '',
    3: signer?.email ?? recipient.email ?? '',
    4: recipient.signature ?? '',
  } as const;
  for (const code of [1, 2, 3, 4] as const) {
    const key = specialKey(recipient.recipientKey, code);
    if (ctx.store.placeholders.has(key)) ctx.store.placeholders.update(key, { value: values[code], changeTime: now });
  }
}

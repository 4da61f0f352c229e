/**
 * Records as the control API shows them (docs/library.md): a contract with its status, recipients with their state
 * and times, placeholders with values and insertions, and the history; scoped, only the tenant's.
 */
import { ApiError } from '../core/errors.js';
import type { Services } from '../store/services.js';
import { openPosition } from '../domain/lifecycle-rules.js';
import { contentValue, recipientLink } from '../domain/links.js';
import type { ContractRecord, PlaceholderRecord, RecipientRecord } from '../store/records.js';
import { isoTime } from '../core/time-format.js';
import type { ControlDeps, Tenant } from './deps.js';

export class Inspection {
  constructor(private readonly deps: Pick<ControlDeps, 'services' | 'baseUrl'>) {}

  /** GET /__sandbox/contracts/{contractKey}: the whole record as the sandbox holds it. */
  contract(contractKey: string, tenant?: Tenant): ContractInspection {
    const contract = this.deps.services.store.contracts.get(contractKey);
    if (!contract || (tenant && contract.platformId !== tenant.platformId))
      throw ApiError.notFound('Contract not found');
    return inspectContract(this.deps.services, contract, this.deps.baseUrl());
  }
}

export type ContractInspection = ReturnType<typeof inspectContract>;

export function inspectRecipient(r: RecipientRecord, baseUrl: string) {
  return {
    recipientKey: r.recipientKey,
    id: r.id,
    fullname: r.fullname ?? '',
    email: r.email ?? '',
    action: r.action,
    ...(r.position !== undefined ? { position: r.position } : {}),
    ...(r.customMessage !== undefined ? { customMessage: r.customMessage } : {}),
    state: r.state,
    ...(r.notifiedAt !== undefined ? { notifiedAt: isoTime(r.notifiedAt) } : {}),
    ...(r.seenAt !== undefined ? { seenAt: isoTime(r.seenAt) } : {}),
    ...(r.actedAt !== undefined ? { actedAt: isoTime(r.actedAt) } : {}),
    ...(r.signature !== undefined ? { signature: r.signature } : {}),
    link: recipientLink(baseUrl, r.recipientKey),
    createTime: isoTime(r.createTime),
    changeTime: isoTime(r.changeTime),
  };
}

function inspectPlaceholder(p: PlaceholderRecord) {
  return {
    placeholderKey: p.placeholderKey,
    id: p.id,
    name: p.name,
    value: p.value,
    type: p.type,
    position: p.position,
    isSpecial: p.isSpecial,
    ...(p.specialType !== undefined ? { specialType: p.specialType } : {}),
    ...(p.recipientKey !== undefined ? { recipientKey: p.recipientKey } : {}),
    insertion: p.insertion,
    createTime: isoTime(p.createTime),
    changeTime: isoTime(p.changeTime),
  };
}

/** A contract, its recipients, placeholders and history, as the control API shows them. */
export function inspectContract(services: Services, contract: ContractRecord, baseUrl: string) {
  const recipients = services.store.recipients.where('contract', contract.contractKey);
  const open = openPosition(recipients);
  return {
    contractKey: contract.contractKey,
    clientKey: contract.clientKey,
    userKey: contract.userKey,
    name: contract.name,
    status: contract.status,
    ...(contract.templateKey !== undefined ? { templateKey: contract.templateKey } : {}),
    ...(open !== undefined ? { openPosition: open } : {}),
    createTime: isoTime(contract.createTime),
    changeTime: isoTime(contract.changeTime),
    value: contentValue(baseUrl, contract),
    recipients: recipients.map((r) => inspectRecipient(r, baseUrl)),
    placeholders: services.store.placeholders.where('contract', contract.contractKey).map(inspectPlaceholder),
    history: contract.history.map((h) => ({ ...h, at: isoTime(h.at) })),
  };
}

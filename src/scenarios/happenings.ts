/**
 * What a scenario hears (docs/scenarios.md): the bus's events, and its own steps having run. Reactions (`when:`)
 * and expectations (`expect:`) both ask here whether a happening matches what they wait for, and how to name it in
 * the log and in evidence.
 */
import type { BusEvent, ContractEvent } from '../core/events.js';
import { globMatches } from '../core/glob.js';
import { statusMatches } from '../core/schemas.js';
import { CONTRACT_EVENT_TYPES, STATUS, type ContractStatus } from '../core/vocabulary.js';
import type { Store } from '../store/store.js';
import { matches } from './matching.js';
import type { Trigger } from './schema.js';
import type { deliveryMatch, requestMatch } from './reaction-schema.js';
import type { z } from 'zod';

/** A step of a scenario has run (`done`): what `{step: <id>}` waits for. */
export interface StepRan {
  type: 'scenario.step';
  scenario: string;
  step: string;
}

export type Happening = BusEvent | StepRan;

type RequestMatch = z.infer<ReturnType<typeof requestMatch>>;
type DeliveryMatch = z.infer<ReturnType<typeof deliveryMatch>>;

const CONTRACT_EVENTS = new Set<string>(CONTRACT_EVENT_TYPES);

export function isContractEvent(h: Happening): h is ContractEvent {
  return CONTRACT_EVENTS.has(h.type);
}

/** Whether `h` is what `trigger` waits for; `scenario` names whose steps `{step}` means. */
export function triggerMatches(trigger: Trigger, h: Happening, scenario: string, store: Store): boolean {
  if (typeof trigger === 'string') return h.type === trigger;
  if (trigger.step !== undefined)
    return h.type === 'scenario.step' && h.scenario === scenario && h.step === trigger.step;
  if (trigger.request !== undefined) return h.type === 'api.requested' && requestMatches(trigger.request, h);
  if (h.type !== trigger.event) return false;
  const about = aboutOf(h);
  if (trigger.client !== undefined && about.clientKey !== trigger.client) return false;
  if (trigger.contract !== undefined) {
    const contract = about.contractKey !== undefined ? store.contracts.get(about.contractKey) : undefined;
    if (!contract) return false;
    if (trigger.contract.key !== undefined && trigger.contract.key !== contract.contractKey) return false;
    if (trigger.contract.name !== undefined && !globMatches(trigger.contract.name, contract.name)) return false;
  }
  if (trigger.recipient !== undefined) {
    const recipient = about.recipientKey !== undefined ? store.recipients.get(about.recipientKey) : undefined;
    const contract = recipient ? store.contracts.get(recipient.contractKey) : undefined;
    if (!recipient || !contract || !matches(trigger.recipient, recipient, contract)) return false;
  }
  return true;
}

export function requestMatches(m: RequestMatch, h: Happening): h is Extract<BusEvent, { type: 'api.requested' }> {
  if (h.type !== 'api.requested') return false;
  if (m.path !== undefined && !globMatches(m.path, h.path)) return false;
  if (m.method !== undefined && m.method.toUpperCase() !== h.method) return false;
  if (m.action !== undefined && m.action !== h.action) return false;
  return m.status === undefined || statusMatches(m.status, h.status);
}

/** A delivery attempt matching `m`; `defaultStatus` applies when `m` names none. */
export function deliveryMatches(m: DeliveryMatch, h: Happening, defaultStatus: string | undefined): boolean {
  if (h.type !== 'webhook.attempted') return false;
  if (m.event !== undefined && m.event !== h.event) return false;
  if (m.webhook !== undefined && m.webhook !== h.webhookKey) return false;
  const status = m.status ?? defaultStatus;
  return status === undefined || statusMatches(status, h.statusCode);
}

/** The contract status a happening reports, for `contract: {status}` expectations. */
export function contractStatusOf(h: Happening): { contractKey: string; status: ContractStatus } | undefined {
  if (isContractEvent(h)) return { contractKey: h.data.contractKey, status: h.data.status };
  if (h.type === 'contract.archived') return { contractKey: h.contractKey, status: STATUS.archived };
  return undefined;
}

function aboutOf(h: Happening): { clientKey?: string; contractKey?: string; recipientKey?: string } {
  if (isContractEvent(h)) {
    const { clientKey, contractKey, recipientKey } = h.data;
    return { clientKey, contractKey, ...(recipientKey !== undefined ? { recipientKey } : {}) };
  }
  if (h.type === 'contract.archived' || h.type === 'document.uploaded')
    return { clientKey: h.clientKey, ...(h.contractKey !== undefined ? { contractKey: h.contractKey } : {}) };
  if (h.type === 'token.created') return h.clientKey !== undefined ? { clientKey: h.clientKey } : {};
  return {};
}

/** How the log and the evidence name a happening. */
export function describe(h: Happening, store: Store): string {
  if (isContractEvent(h)) {
    const by = h.data.email ?? h.data.recipientKey;
    return `${h.type} of "${h.data.name ?? store.contracts.get(h.data.contractKey)?.name ?? h.data.contractKey}"${by ? ` by ${by}` : ''}`;
  }
  switch (h.type) {
    case 'contract.archived':
      return `contract.archived of "${store.contracts.get(h.contractKey)?.name ?? h.contractKey}"`;
    case 'token.created':
      return `token.created (${h.kind}${h.clientKey !== undefined ? ` token of ${h.clientKey}` : ' token'})`;
    case 'document.uploaded':
      return `document.uploaded for ${h.contractKey ?? h.templateKey}`;
    case 'api.requested':
      return `${h.method} ${h.path}${h.action !== undefined ? ` (${h.action})` : ''} answered ${h.status}`;
    case 'webhook.attempted':
      return `delivery ${h.deliveryId} of ${h.event} to ${h.webhookKey} ${h.statusCode !== undefined ? `answered ${h.statusCode}` : `failed: ${h.error ?? 'no answer'}`}`;
    case 'scenario.step':
      return `step ${h.step} ran`;
    default:
      return h.type;
  }
}

/** How a trigger reads in messages ("contract.signed", "POST /api/token", "step tokens-expire"). */
export function triggerText(t: Trigger): string {
  if (typeof t === 'string') return t;
  if (t.step !== undefined) return `step ${t.step}`;
  if (t.request !== undefined)
    return `a request ${[t.request.method, t.request.path ?? '/api/*', t.request.action && `(${t.request.action})`, t.request.status !== undefined && `answered ${t.request.status}`].filter(Boolean).join(' ')}`;
  const narrow = [
    t.recipient && `recipient ${JSON.stringify(t.recipient)}`,
    t.contract && `contract ${JSON.stringify(t.contract)}`,
    t.client && `client ${t.client}`,
  ].filter(Boolean);
  return `${t.event}${narrow.length ? ` (${narrow.join(', ')})` : ''}`;
}

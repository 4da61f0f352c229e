/**
 * Events the service emits (docs/webhooks.md), carried on the sandbox's internal bus. The webhook dispatcher,
 * the outbox and scenario rules subscribe to the bus; request handlers never call them directly. The event kinds
 * and the webhook flags that subscribe to them are words of the vocabulary (vocabulary.ts).
 */
import type { TraceContext } from './trace-context.js';
import type { ContractStatus, ContractEventType } from './vocabulary.js';

/** The payload's `data` (docs/compatibility.md lists what the real service's payload is reported to carry). */
export interface ContractEventData {
  contractKey: string;
  clientKey: string;
  /** The contract's name and create time (ISO 8601). */
  name?: string;
  createTime?: string;
  /** The acting recipient, where one acted (seen, signed, approved). */
  recipientKey?: string;
  email?: string;
  fullname?: string;
  status: ContractStatus;
  [extra: string]: unknown;
}

export interface ContractEvent {
  /** Unique per event; webhook deliveries use it as `webhook-id`. */
  id: string;
  type: ContractEventType;
  /** Sandbox time, ISO 8601. */
  timestamp: string;
  data: ContractEventData;
  /** Internal routing, never sent to receivers. */
  platformId: string;
  /** What caused it: `api`, `control`, or a scenario rule or step. */
  cause?: string;
  /** The trace of the /api request that caused it (docs/webhooks.md, "Traces"); its deliveries carry it. */
  trace?: TraceContext;
}

/** Sandbox-internal signals (not webhook events). */
export type InternalEvent =
  | { type: 'sandbox.reset'; platformId?: string }
  | { type: 'webhook.deleted'; platformId: string; webhookKey: string }
  | {
      type: 'recipient.notified';
      platformId: string;
      contractKey: string;
      clientKey: string;
      recipientKey: string;
      cause?: string;
    }
  | {
      /** A recipient's client asked for the confirmation of its signature or approval (`recipient_sign_email`). */
      type: 'recipient.confirmed';
      platformId: string;
      contractKey: string;
      clientKey: string;
      recipientKey: string;
      role: 'sign' | 'approve';
      cause?: string;
    }
  // The signals below feed scenario reactions and expectations (docs/scenarios.md); nothing else needs them.
  | { type: 'contract.archived'; platformId: string; contractKey: string; clientKey: string; cause?: string }
  | { type: 'token.created'; platformId: string; kind: 'platform' | 'client'; clientKey?: string; cause?: string }
  | {
      type: 'document.uploaded';
      platformId: string;
      clientKey: string;
      contractKey?: string;
      templateKey?: string;
      cause?: string;
    }
  | {
      /** An /api request was answered (emitted only while someone listens). */
      type: 'api.requested';
      platformId?: string;
      method: string;
      path: string;
      action?: string;
      status: number;
    }
  | {
      /** A webhook delivery attempt finished: `statusCode` when the receiver (or an outage) answered. */
      type: 'webhook.attempted';
      platformId: string;
      clientKey: string;
      deliveryId: string;
      webhookKey: string;
      event: ContractEventType;
      contractKey: string;
      statusCode?: number;
      error?: string;
    };

export type BusEvent = ContractEvent | InternalEvent;

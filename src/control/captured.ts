/**
 * What the sandbox captured, as control operations: the outbox (emails the service would have sent), webhook
 * deliveries (with redelivery, receiver faults and simulated outages), and the request journal. Query parameters
 * arrive as strings, so each filter is validated here (control/schemas.ts).
 */
import { ApiError, quote } from '../core/errors.js';
import { parseWith } from '../core/validation.js';
import type { JournalEntry, RequestJournal } from '../journal/journal.js';
import type { Email, Outbox } from '../outbox/outbox.js';
import type { DeliveryView, OutageSpec, WebhookDispatcher } from '../webhooks/dispatcher.js';
import type { ReceiverFaultView } from '../webhooks/receiver-fault-spec.js';
import type { ControlDeps } from './deps.js';
import { FaultControl, type FaultOperations } from './faults.js';
import { deliveryQuery, emailQuery, journalQuery } from './schemas.js';

/** The outbox (docs/library.md). */
export class OutboxControl {
  constructor(private readonly outbox: Outbox) {}

  /** `input`: an EmailFilter. */
  list(input: unknown = {}): Email[] {
    const filter = parseWith(emailQuery(), input);
    // An empty query parameter (`?to=`) filters nothing.
    return this.outbox.list({
      to: filter.to || undefined,
      contractKey: filter.contractKey || undefined,
      recipientKey: filter.recipientKey || undefined,
      kind: filter.kind || undefined,
    });
  }

  /** Empties it; returns how many emails went. */
  clear(): number {
    const cleared = this.outbox.size;
    this.outbox.clear();
    return cleared;
  }
}

/** Webhook deliveries (docs/webhooks.md): the log, redelivery, receiver faults, simulated outages. */
export class WebhookControl {
  private readonly dispatcher: WebhookDispatcher;
  /** Receiver faults: deliveries spoilt on purpose, to test the receiver (docs/webhooks.md, "Receiver faults"). */
  readonly faults: FaultOperations<ReceiverFaultView>;

  constructor(deps: Pick<ControlDeps, 'webhooks' | 'receiverFaults'>) {
    this.dispatcher = deps.webhooks;
    this.faults = FaultControl.forReceivers(deps.receiverFaults);
  }

  /** `input`: a DeliveryQuery. */
  deliveries(input: unknown = {}): DeliveryView[] {
    return this.dispatcher.deliveries(parseWith(deliveryQuery(), input));
  }

  delivery(id: string): DeliveryView {
    const delivery = this.dispatcher.delivery(id);
    if (!delivery) throw ApiError.notFound(`Webhook delivery ${quote(id)} not found`);
    return delivery;
  }

  redeliver(id: string): Promise<DeliveryView> {
    return this.dispatcher.redeliver(id);
  }

  /** A receiver goes down: every attempt matching the spec fails (scenarios' `webhookOutage`); returns its id. */
  startOutage(spec: OutageSpec): string {
    return this.dispatcher.startOutage(spec);
  }

  endOutage(id: string): void {
    this.dispatcher.endOutage(id);
  }
}

/** The request journal (docs/library.md). */
export class JournalControl {
  constructor(private readonly journal: RequestJournal) {}

  /** `input`: a JournalFilter. */
  list(input: unknown = {}): { requests: JournalEntry[]; capacity: number } {
    const filter = parseWith(journalQuery(), input);
    return { requests: this.journal.list(filter), capacity: this.journal.limit };
  }

  /** Empties the journal, or one platform's part of it. */
  clear(input: { apiKey?: string | undefined } = {}): { cleared: 'all' | 'platform' } {
    if (input.apiKey === undefined) {
      this.journal.clear();
      return { cleared: 'all' };
    }
    const platformId = this.journal.platformIdOf(input.apiKey);
    if (!platformId) throw ApiError.notFound('No platform with this apiKey');
    this.journal.clear(platformId);
    return { cleared: 'platform' };
  }
}

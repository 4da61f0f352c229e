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
import type { ControlDeps, Tenant } from './deps.js';
import { FaultControl, type FaultOperations } from './faults.js';
import { deliveryQuery, emailQuery, journalQuery } from './schemas.js';

/** The outbox (docs/library.md). */
export class OutboxControl {
  constructor(private readonly outbox: Outbox) {}

  /** `input`: an EmailFilter. Scoped: the tenant's emails only. */
  list(input: unknown = {}, tenant?: Tenant): Email[] {
    const filter = parseWith(emailQuery(), input);
    // An empty query parameter (`?to=`) filters nothing.
    return this.outbox.list(
      {
        to: filter.to || undefined,
        contractKey: filter.contractKey || undefined,
        recipientKey: filter.recipientKey || undefined,
        kind: filter.kind || undefined,
      },
      tenant?.platformId,
    );
  }

  /** Empties it (scoped: of the tenant's emails); returns how many emails went. */
  clear(tenant?: Tenant): number {
    const before = this.outbox.size;
    this.outbox.clear(tenant?.platformId);
    return before - this.outbox.size;
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

  /** `input`: a DeliveryQuery. Scoped: the tenant's deliveries only. */
  deliveries(input: unknown = {}, tenant?: Tenant): DeliveryView[] {
    const query = parseWith(deliveryQuery(), input);
    return this.dispatcher.deliveries(tenant ? { ...query, platformId: tenant.platformId } : query);
  }

  delivery(id: string, tenant?: Tenant): DeliveryView {
    const delivery = this.dispatcher.delivery(id, tenant?.platformId);
    if (!delivery) throw ApiError.notFound(`Webhook delivery ${quote(id)} not found`);
    return delivery;
  }

  redeliver(id: string, tenant?: Tenant): Promise<DeliveryView> {
    this.delivery(id, tenant);
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

  /** `input`: a JournalFilter. Scoped: the tenant's requests only. */
  list(input: unknown = {}, tenant?: Tenant): { requests: JournalEntry[]; capacity: number } {
    const filter = parseWith(journalQuery(), input);
    if (tenant && filter.apiKey !== undefined && filter.apiKey !== tenant.apiKey)
      throw ApiError.badRequest('A scoped journal shows its own tenant: leave apiKey out, or name this tenant', [
        { path: 'apiKey', message: 'Another tenant' },
      ]);
    const scoped = tenant ? { ...filter, apiKey: tenant.apiKey } : filter;
    return { requests: this.journal.list(scoped), capacity: this.journal.limit };
  }

  /** Resolves when every kept entry can be listed without parsing a body (the control API and the dashboard wait). */
  ready(): Promise<void> {
    return this.journal.showAll();
  }

  /** Empties the journal, or one platform's part of it (scoped: the tenant's). */
  clear(input: { apiKey?: string | undefined } = {}, tenant?: Tenant): { cleared: 'all' | 'platform' } {
    if (tenant) {
      if (input.apiKey !== undefined && input.apiKey !== tenant.apiKey)
        throw ApiError.badRequest('A scoped journal clears its own tenant: leave apiKey out, or name this tenant', [
          { path: 'apiKey', message: 'Another tenant' },
        ]);
      this.journal.clear(tenant.platformId);
      return { cleared: 'platform' };
    }
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

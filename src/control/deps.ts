/** What the control operations work on: the sandbox's services and the subsystems fed by its events. */
import type { Services } from '../store/services.js';
import type { ApiFaults } from '../api-faults/registry.js';
import type { SeedOptions } from '../fixtures/seed.js';
import type { FixtureFile } from '../fixtures/schema.js';
import type { RequestJournal } from '../journal/journal.js';
import type { Outbox } from '../outbox/outbox.js';
import type { DocumentStore } from '../store/documents.js';
import type { WebhookDispatcher } from '../webhooks/dispatcher.js';
import type { ReceiverFaults } from '../webhooks/receiver-faults.js';
import type { RateLimits } from '../rate-limits/rate-limits.js';

export interface ControlDeps {
  services: Services;
  outbox: Outbox;
  webhooks: WebhookDispatcher;
  receiverFaults: ReceiverFaults;
  faults: ApiFaults;
  journal: RequestJournal;
  /** Quotas like a test mode (docs/readiness.md). */
  rateLimits: RateLimits;
  version: string;
  /** The fixtures a reset seeds again, and how (same seed, same keys). */
  fixtures: FixtureFile[];
  seedOptions: SeedOptions;
  /** The address links point at (known once the sandbox listens). */
  baseUrl(): string;
  /** The default platform's API key and the default client's key (the first of the fixtures). */
  defaultAccount: { apiKey?: string | undefined; clientKey?: string | undefined };
  /** Uploaded PDFs: part of the state, so snapshots carry them and resets drop them. */
  documents?: DocumentStore | undefined;
}

/** The tenant a scoped control operation acts for (`/__sandbox/platforms/{apiKey}/…`, `sandbox.tenant(apiKey)`). */
export interface Tenant {
  platformId: string;
  apiKey: string;
}

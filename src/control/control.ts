/**
 * The control operations: everything that exists only in the sandbox (docs/architecture.md), written once and
 * grouped in parts, each a noun. The /__sandbox routes (http/control-api/), the library (`startSandbox()`), the
 * dashboard and the scenario timeline all call these, so an operation behaves the same whichever door a test uses.
 * Each operation validates its own input (control/schemas.ts) and refuses with an ApiError; the routes render it,
 * the library turns it into a SandboxControlError.
 */
import type { FaultView } from '../api-faults/registry.js';
import { JournalControl, OutboxControl, WebhookControl } from './captured.js';
import { ClockControl } from './clock.js';
import { FaultControl, type FaultOperations } from './faults.js';
import { Inspection } from './inspection.js';
import { RecipientControl } from './recipients.js';
import { StateControl } from './state.js';
import { RateLimitControl } from './rate-limits.js';
import { ReadinessControl } from './readiness.js';
import type { ControlDeps } from './deps.js';

export type { ControlDeps, Tenant } from './deps.js';

/** Every control operation, by part. */
export interface Control {
  /** Health, reset, platforms, snapshots, tokens, the default account (state.ts, snapshots.ts). */
  readonly state: StateControl;
  /** The sandbox clock (clock.ts). */
  readonly clock: ClockControl;
  /** Acting as recipients (recipients.ts). */
  readonly recipients: RecipientControl;
  /** Records as the sandbox holds them (inspection.ts). */
  readonly inspection: Inspection;
  /** What was captured (captured.ts): emails, webhook deliveries (with receiver faults and outages), requests. */
  readonly outbox: OutboxControl;
  readonly webhooks: WebhookControl;
  readonly journal: JournalControl;
  /** API faults (faults.ts; receiver faults are `webhooks.faults`). */
  readonly faults: FaultOperations<FaultView>;
  /** Quotas like a test mode (rate-limits.ts). */
  readonly rateLimits: RateLimitControl;
  /** The go-live readiness report (readiness.ts, docs/readiness.md). */
  readonly readiness: ReadinessControl;
}

export function createControl(deps: ControlDeps): Control {
  return {
    state: new StateControl(deps),
    clock: new ClockControl(deps.services.clocks),
    recipients: new RecipientControl(deps),
    inspection: new Inspection(deps),
    outbox: new OutboxControl(deps.outbox),
    webhooks: new WebhookControl(deps),
    journal: new JournalControl(deps.journal),
    faults: FaultControl.forApi(deps.faults),
    rateLimits: new RateLimitControl(deps.rateLimits),
    readiness: new ReadinessControl(deps),
  };
}

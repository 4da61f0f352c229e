/**
 * The subsystems of one sandbox fed by events (outbox, webhooks and their receiver faults, the request journal and
 * its log, API faults; each subscribes to the bus itself), the control operations over them, and the scenario
 * engine that drives the control operations.
 */
import type { Tracer } from '../core/trace-context.js';
import { BUNDLED_SCENARIOS, type ResolvedConfig } from '../config/options.js';
import { VERSION } from '../config/version.js';
import { ApiFaults } from '../api-faults/registry.js';
import { type Control, createControl } from '../control/control.js';
import { lineWriter, requestLogger } from '../http/request-log.js';
import { RequestJournal } from '../journal/journal.js';
import { Outbox } from '../outbox/outbox.js';
import { ScenarioEngine } from '../scenarios/engine.js';
import { WebhookDispatcher } from '../webhooks/dispatcher.js';
import { ReceiverFaults } from '../webhooks/receiver-faults.js';
import { RateLimits } from '../rate-limits/rate-limits.js';
import type { WallClock } from '../core/wall-time.js';
import type { SandboxState } from './state.js';

export interface Subsystems {
  webhooks: WebhookDispatcher;
  journal: RequestJournal;
  faults: ApiFaults;
  rateLimits: RateLimits;
  control: Control;
  scenarios: ScenarioEngine;
  /** The spans of /api requests and delivery attempts (wiring/tracing.ts). */
  tracer: Tracer;
  /** Writes the request log's pending lines (close() calls it). */
  flushLog(): void;
  /** Called once listening: releases the deliveries held until then (`webhooksAfterListen`). */
  listening(): void;
}

export function createSubsystems(
  state: SandboxState,
  config: ResolvedConfig,
  options: { linkBase: () => string; webhooksAfterListen: boolean; tracer: Tracer; wall?: WallClock | undefined },
): Subsystems {
  const { services, fixtures, seedOptions, defaultAccount, documents } = state;
  const outbox = new Outbox(services, { baseUrl: options.linkBase });
  const receiverFaults = new ReceiverFaults(services.bus, config.seed ?? 1, services.store);
  const webhooks = new WebhookDispatcher(services, {
    timeoutMs: config.webhookTimeoutMs,
    logLimit: config.webhookLogLimit,
    concurrency: config.webhookConcurrency,
    userAgent: `esign-sandbox/${VERSION}`,
    receiverFaults,
    tracer: options.tracer,
    ...(options.wall ? { wall: options.wall } : {}),
  });
  let listening: () => void = () => {};
  if (options.webhooksAfterListen) webhooks.holdUntil(new Promise<void>((resolve) => (listening = resolve)));
  const journal = new RequestJournal(services, config.journalLimit, config.apiKeyHeader, options.wall);
  const faults = new ApiFaults(services, config.seed ?? 1);
  const rateLimits = new RateLimits(services.clocks, services.bus, config.rateLimit);
  const logOut = lineWriter(process.stdout);
  const log = requestLogger({ format: config.log, write: logOut.write, color: process.stdout.isTTY === true });
  if (log) journal.onEntry(log);

  const control = createControl({
    services,
    outbox,
    webhooks,
    receiverFaults,
    faults,
    journal,
    rateLimits,
    version: VERSION,
    fixtures,
    seedOptions,
    baseUrl: options.linkBase,
    defaultAccount,
    documents,
  });
  const scenarios = new ScenarioEngine({ services, control, bundledDir: BUNDLED_SCENARIOS, seed: config.seed });
  return {
    webhooks,
    journal,
    faults,
    rateLimits,
    control,
    scenarios,
    tracer: options.tracer,
    flushLog: () => logOut.flush(),
    listening: () => listening(),
  };
}

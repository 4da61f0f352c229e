/**
 * The control service: every operation that exists only in the sandbox (decisions §10), written once. The
 * /__sandbox routes, the in-process library (`startSandbox()`) and the scenario timeline all call these methods,
 * so a control operation behaves the same whichever way a test reaches it. Each method validates its own input
 * with the schemas of control/schemas.ts and refuses with an ApiError; the routes render it, the library turns it
 * into a SandboxControlError.
 */
import type { z } from 'zod';
import { type ClockState, TIME_RANGE, inTimeRange, parseDuration } from '../core/clock.js';
import { ApiError, quote } from '../core/errors.js';
import { createIdSource } from '../core/ids.js';
import { isoTime } from '../core/time-format.js';
import { parseWith } from '../core/validation.js';
import { EventBus } from '../core/event-bus.js';
import { type OpContext, type Services, systemContext } from '../domain/context.js';
import { updateNotifications } from '../domain/clients.js';
import { actAsRecipient } from '../domain/lifecycle.js';
import type { Verb } from '../domain/lifecycle-rules.js';
import { openPosition } from '../domain/lifecycle-rules.js';
import { createPlatform, platformByApiKey } from '../domain/platforms.js';
import { type ResolvedShareLink, resolveShareLink } from '../domain/share-links.js';
import { sendToRecipients } from '../domain/sending.js';
import { type TokenSelector, expireTokens, revokeTokens } from '../domain/tokens.js';
import type { Faults, FaultView } from '../faults/faults.js';
import { type FaultSpec, faultSpec } from '../faults/spec.js';
import { type SeedOptions, applyFixtures, seedContract } from '../fixtures/seed.js';
import type { ContractFixture, FixtureFile } from '../fixtures/schema.js';
import type { JournalEntry, RequestJournal } from '../journal/journal.js';
import type { Email, Outbox } from '../outbox/outbox.js';
import { type StoreData, emptyData } from '../store/records.js';
import { SNAPSHOT_FORMAT, type Snapshot, parseSnapshot } from '../store/snapshot.js';
import { Store } from '../store/store.js';
import { type DocumentEntries, DocumentStore } from '../store/documents.js';
import { deleteTenantRecords, restoreTenantRecords } from '../store/tenant.js';
import type {
  ClientRecord,
  ContractRecord,
  PlaceholderRecord,
  PlatformRecord,
  RecipientRecord,
} from '../store/records.js';
import type { DeliveryView, OutageSpec, WebhookDispatcher } from '../webhooks/dispatcher.js';
import { type ReceiverFaultView, receiverFaultSpec } from '../webhooks/receiver-faults.js';
import type { Health, Platform, RecipientActResult, ResetResult } from './api.js';
import {
  actBody,
  advanceBody,
  deliveryQuery,
  emailQuery,
  expireBody,
  faultList,
  journalQuery,
  platformBody,
  receiverFaultList,
  resetBody,
  setBody,
} from './schemas.js';
import { inspectContract, inspectRecipient } from './views.js';

export interface ControlDeps {
  services: Services;
  outbox: Outbox;
  webhooks: WebhookDispatcher;
  faults: Faults;
  journal: RequestJournal;
  version: string;
  /** The fixtures a reset seeds again, and how (same seed, same keys). */
  fixtures: FixtureFile[];
  seedOptions: SeedOptions;
  /** The address links point at (known once the sandbox listens). */
  baseUrl(): string;
  /** The default platform's API key and the default client's key (the first of the fixtures). */
  defaults: { apiKey?: string | undefined; clientKey?: string | undefined };
  /** Uploaded PDFs: part of the state, so snapshots carry them and resets drop them. */
  documents?: DocumentStore | undefined;
}

/** What a recipient's page shows (`ControlService.sharePage`). */
export interface SharePage extends ResolvedShareLink {
  recipients: RecipientRecord[];
  placeholders: PlaceholderRecord[];
  openPosition?: number;
}

/** One page of the dashboard's contract list. */
export interface ContractPage {
  total: number;
  offset: number;
  limit: number;
  contracts: { contract: ContractRecord; recipients: RecipientRecord[] }[];
}

/** A snapshot with the uploaded PDFs it refers to, base64 under `"<platformId>/<sha256>"` (docs/documents.md). */
export type SnapshotWithDocuments = Snapshot & { documents?: DocumentEntries };

const LAST_TIME = new Date(TIME_RANGE.max).toISOString();

export class ControlService {
  constructor(private readonly deps: ControlDeps) {}

  private get services(): Services {
    return this.deps.services;
  }

  private context(cause: string): OpContext {
    return systemContext(this.services, cause);
  }

  health(): Health {
    const { store, clock } = this.services;
    return {
      status: 'ok',
      version: this.deps.version,
      now: isoTime(clock.now()),
      clock: clock.isFrozen ? 'frozen' : 'real',
      persistent: store.persistent,
      counts: {
        platforms: store.platforms.size,
        clients: store.clients.size,
        contracts: store.contracts.size,
        webhooks: store.webhooks.size,
      },
    };
  }

  // ---- the clock (decisions §8) ---------------------------------------------------------------------------

  clockState(): ClockState {
    return this.services.clock.state();
  }

  /** Moves time forward; answers once every timer that fell due, and the work it started, has settled. */
  async advanceClock(input: z.input<ReturnType<typeof advanceBody>>): Promise<ClockState> {
    const { by } = parseWith(advanceBody(), input);
    const { clock } = this.services;
    const ms = parseDuration(by);
    if (ms === undefined || !Number.isFinite(ms)) {
      throw ApiError.badRequest(
        `Cannot read duration ${quote(by)}; use e.g. "90s", "30m", "2h", "1d", "1h30m" or a number of seconds`,
        [{ path: 'by', message: 'Not a duration' }],
      );
    }
    // Every response prints times, so the clock never goes where a date cannot be printed.
    if (!inTimeRange(clock.now() + ms)) {
      throw ApiError.badRequest(
        `Advancing by ${quote(by)} would move the clock past ${LAST_TIME}, the last time the sandbox can show`,
        [{ path: 'by', message: 'Too far' }],
      );
    }
    await clock.advance(ms);
    return clock.state();
  }

  /** Jumps to a time; forward jumps run the timers on the way. */
  async setClock(input: z.input<ReturnType<typeof setBody>>): Promise<ClockState> {
    const { to } = parseWith(setBody(), input);
    const ms = typeof to === 'number' ? to : Date.parse(to);
    if (!Number.isFinite(ms))
      throw ApiError.badRequest(`Cannot read time ${quote(to)}; use ISO 8601 like 2026-01-01T09:00:00Z`, [
        { path: 'to', message: 'Not a time' },
      ]);
    if (!inTimeRange(ms)) {
      throw ApiError.badRequest(`Time ${quote(to)} is outside the years 0000 to 9999 the sandbox can show`, [
        { path: 'to', message: 'Out of range' },
      ]);
    }
    await this.services.clock.set(ms);
    return this.services.clock.state();
  }

  freezeClock(): ClockState {
    this.services.clock.freeze();
    return this.services.clock.state();
  }

  unfreezeClock(): ClockState {
    this.services.clock.unfreeze();
    return this.services.clock.state();
  }

  // ---- state: reset, platforms, snapshots -----------------------------------------------------------------

  /** Everything back to the seeded state, or only the platform whose apiKey is given (decisions §10). */
  async reset(input: z.input<ReturnType<typeof resetBody>> = {}): Promise<ResetResult> {
    const { apiKey } = parseWith(resetBody(), input);
    if (apiKey !== undefined) return this.resetPlatform(apiKey);
    const { services } = this;
    services.clock.clearTimers();
    services.store.replace(emptyData());
    // Re-seeding with the same seed gives the same keys again.
    services.ids = createIdSource(this.deps.seedOptions.seed);
    await applyFixtures(services, this.deps.fixtures, this.deps.seedOptions);
    await this.deps.documents?.replace([]);
    services.bus.emit({ type: 'sandbox.reset' });
    return { scope: 'all' };
  }

  private async resetPlatform(apiKey: string): Promise<ResetResult> {
    const { store, bus } = this.services;
    const platform = platformByApiKey(this.services, apiKey);
    if (!platform) throw ApiError.notFound('No platform with this apiKey');
    const seed = await this.seededData();
    const removed = deleteTenantRecords(store, platform.platformId);
    const restored = restoreTenantRecords(store, seed, apiKey, platform.platformId);
    await this.deps.documents?.clearPlatform(platform.platformId);
    // Timers belong to their modules: each clears its own for this platform on this event.
    bus.emit({ type: 'sandbox.reset', platformId: platform.platformId });
    return { scope: 'platform', apiKey, platformId: platform.platformId, removed, restored };
  }

  /** The records the fixtures give, seeded into a scratch store (same seed, same keys as at start). */
  private async seededData(): Promise<StoreData> {
    const { store: scratch } = await Store.open();
    const services = {
      store: scratch,
      clock: this.services.clock,
      bus: new EventBus(),
      ids: createIdSource(this.deps.seedOptions.seed),
    };
    await applyFixtures(services, this.deps.fixtures, this.deps.seedOptions);
    return scratch.data;
  }

  /** A new isolated platform account: give each test file its own. */
  createPlatform(input: z.input<ReturnType<typeof platformBody>> = {}): Platform {
    const platform = createPlatform(this.context('control'), parseWith(platformBody(), input));
    return { platformId: platform.platformId, apiKey: platform.apiKey, secret: platform.secret };
  }

  /** The whole state as one JSON-ready document (GET /__sandbox/state). */
  snapshot(): SnapshotWithDocuments {
    const { clock, store } = this.services;
    const now = isoTime(clock.now());
    const snapshot: SnapshotWithDocuments = {
      format: SNAPSHOT_FORMAT,
      version: 1,
      savedAt: now,
      clock: { now, mode: clock.isFrozen ? 'frozen' : 'real' },
      store: structuredClone(store.data),
    };
    if (this.deps.documents) {
      // Only the files records still refer to: a replaced upload is not carried along.
      const used = referencedDocuments(snapshot.store);
      snapshot.documents = this.deps.documents.entries((platformId, sha) => used.has(`${platformId}/${sha}`));
    }
    return snapshot;
  }

  /** Puts a snapshot back, validated first and refused whole when wrong. */
  async restore(input: unknown): Promise<Snapshot> {
    const snapshot = parseSnapshot(input);
    const files = this.snapshotDocuments(snapshot, input);
    const { clock, store, bus } = this.services;
    clock.clearTimers();
    store.replace(structuredClone(snapshot.store));
    if (files) await this.deps.documents!.replace(files);
    if (snapshot.clock) {
      await clock.set(Date.parse(snapshot.clock.now));
      if (snapshot.clock.mode === 'frozen') clock.freeze();
      if (snapshot.clock.mode === 'real') clock.unfreeze();
    }
    // Emails, deliveries and the journal are observations of the old state: modules clear them on this event.
    bus.emit({ type: 'sandbox.reset' });
    return snapshot;
  }

  /** The files a snapshot carries, checked against their hashes and against every record that refers to one. */
  private snapshotDocuments(
    snapshot: Snapshot,
    input: unknown,
  ): ReturnType<typeof DocumentStore.decode>['files'] | undefined {
    if (!this.deps.documents) return undefined;
    const raw = (input as { documents?: unknown }).documents ?? {};
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      throw ApiError.badRequest(
        'Invalid snapshot: documents must be an object of "<platformId>/<sha256>": "<base64>"',
        [{ path: 'documents', message: 'Must be an object' }],
      );
    }
    const { files, errors } = DocumentStore.decode(raw as DocumentEntries);
    const present = new Set(files.map((f) => `${f.platformId}/${f.sha}`));
    for (const name of referencedDocuments(snapshot.store)) {
      if (!present.has(name))
        errors.push({
          path: `documents.${name}`,
          message: 'A contract or template refers to this file, but the snapshot does not carry it',
        });
    }
    if (errors.length) {
      throw ApiError.badRequest(
        `Invalid snapshot: ${errors
          .slice(0, 3)
          .map((e) => `${e.path}: ${e.message}`)
          .join('; ')}`,
        errors,
      );
    }
    return files;
  }

  // ---- tokens ---------------------------------------------------------------------------------------------

  /** Force-expires one token (`{token}`), or every live one. */
  expireTokens(input: z.input<ReturnType<typeof expireBody>> = {}): { expired: number } {
    const { token } = parseWith(expireBody(), input);
    return { expired: expireTokens(this.context('control'), token !== undefined ? { token } : 'all') };
  }

  /** Scenario steps: expire or revoke a selection of tokens. */
  expireTokensOf(which: TokenSelector, cause: string): number {
    return expireTokens(this.context(cause), which);
  }

  revokeTokensOf(which: Exclude<TokenSelector, { token: string }>, cause: string): number {
    return revokeTokens(this.context(cause), which);
  }

  // ---- recipients and contracts ---------------------------------------------------------------------------

  /**
   * Acts as a recipient (decisions §6): the same domain operation whichever way a recipient acts. `ip` is the
   * address of the request that acted (the recipient page passes the browser's); the control API and scenarios
   * act from the sandbox itself, `127.0.0.1` (decisions §11).
   */
  act(
    recipientKey: string,
    verb: Verb,
    input: z.input<ReturnType<typeof actBody>> = {},
    cause = 'control',
    options: { ip?: string | undefined } = {},
  ): RecipientActResult {
    const { signature } = parseWith(actBody(), input);
    const recipient = actAsRecipient(this.context(cause), recipientKey, verb, {
      signature,
      ip: options.ip ?? '127.0.0.1',
    });
    const contract = this.services.store.contracts.get(recipient.contractKey)!;
    return {
      recipient: inspectRecipient(recipient, this.deps.baseUrl()),
      contract: { contractKey: contract.contractKey, status: contract.status },
    };
  }

  /**
   * Acts as a recipient and answers once the first delivery attempts it caused have settled, as a clock advance
   * does: a test's assertion right after it sees the webhooks (the /__sandbox route and the library use this).
   */
  async actAndSettle(
    recipientKey: string,
    verb: Verb,
    input: z.input<ReturnType<typeof actBody>> = {},
    cause = 'control',
  ): Promise<RecipientActResult> {
    const result = this.act(recipientKey, verb, input, cause);
    await this.services.clock.work.settled();
    return result;
  }

  contract(contractKey: string): ReturnType<typeof inspectContract> {
    const contract = this.services.store.contracts.get(contractKey);
    if (!contract) throw ApiError.notFound('Contract not found');
    return inspectContract(this.services, contract, this.deps.baseUrl());
  }

  /** A recipient's record and its contract's, as they are stored (for the recipient's page). */
  recipientRecords(recipientKey: string): { recipient?: RecipientRecord; contract?: ContractRecord } {
    const recipient = this.services.store.recipients.get(recipientKey);
    const contract = recipient ? this.services.store.contracts.get(recipient.contractKey) : undefined;
    return { ...(recipient ? { recipient } : {}), ...(contract ? { contract } : {}) };
  }

  /**
   * What a share link's page shows (`/sharing/<link>`): the recipient and contract it opens, every recipient of the
   * contract (whose turn it is), its placeholders, and the open position; undefined for an unknown link.
   */
  sharePage(link: string): SharePage | undefined {
    const resolved = resolveShareLink(this.context('page'), link);
    if (!resolved) return undefined;
    const { store } = this.services;
    const recipients = store.recipients.where('contract', resolved.contract.contractKey).sort((a, b) => a.id - b.id);
    const open = openPosition(recipients);
    return {
      ...resolved,
      recipients,
      placeholders: store.placeholders.where('contract', resolved.contract.contractKey),
      ...(open !== undefined ? { openPosition: open } : {}),
    };
  }

  /**
   * One page of contracts, newest first, for the dashboard: filtered by platform, client and status, with the
   * total that matched. Only the page's contracts are shaped, so a store of 10,000 stays quick to page through.
   */
  contractPage(
    input: {
      platformId?: string | undefined;
      clientKey?: string | undefined;
      status?: string | undefined;
      offset?: number;
      limit?: number;
    } = {},
  ): ContractPage {
    const { store } = this.services;
    const all = input.clientKey ? store.contracts.where('client', input.clientKey) : store.contracts.all();
    const matched = all.filter(
      (c) => (!input.platformId || c.platformId === input.platformId) && (!input.status || c.status === input.status),
    );
    matched.sort((a, b) => b.createTime - a.createTime || (a.contractKey < b.contractKey ? -1 : 1));
    const offset = Math.max(0, input.offset ?? 0);
    const limit = Math.max(1, Math.min(input.limit ?? 25, 200));
    const contracts = matched.slice(offset, offset + limit).map((contract) => ({
      contract,
      recipients: store.recipients.where('contract', contract.contractKey).sort((a, b) => a.id - b.id),
    }));
    return { total: matched.length, offset, limit, contracts };
  }

  /** Every platform with its clients (the dashboard's filters). */
  platforms(): { platform: PlatformRecord; clients: ClientRecord[] }[] {
    const { store } = this.services;
    return store.platforms
      .all()
      .map((platform) => ({ platform, clients: store.clients.where('platform', platform.platformId) }));
  }

  /** Recipients that have been notified (or gone further), each with its contract, for scenario steps that act. */
  notifiedRecipients(): { recipient: RecipientRecord; contract: ContractRecord }[] {
    const { store } = this.services;
    const out: { recipient: RecipientRecord; contract: ContractRecord }[] = [];
    for (const recipient of store.recipients.all()) {
      const contract = recipient.state === 'waiting' ? undefined : store.contracts.get(recipient.contractKey);
      if (contract) out.push({ recipient, contract });
    }
    return out;
  }

  client(clientKey: string): ClientRecord | undefined {
    return this.services.store.clients.get(clientKey);
  }

  /** A contract by key, or else the first with exactly this name. */
  contractRecord(keyOrName: string): ContractRecord | undefined {
    const { store } = this.services;
    return store.contracts.get(keyOrName) ?? store.contracts.all().find((c) => c.name === keyOrName);
  }

  /** A contract as a fixture describes it, created (and with `send`, sent) for a client. */
  createContract(client: ClientRecord, spec: ContractFixture, cause: string): ContractRecord {
    if (spec.contractKey !== undefined && this.services.store.contracts.has(spec.contractKey)) {
      throw ApiError.conflict(`contractKey ${quote(spec.contractKey)} already exists`);
    }
    return seedContract(this.context(cause), client, spec);
  }

  /** Sends an existing contract to its recipients again, as recipient `send` with no changes does. */
  sendContract(contract: ContractRecord, cause: string): void {
    const client = this.services.store.clients.get(contract.clientKey)!;
    sendToRecipients({ ...this.context(cause), client }, contract, []);
  }

  /** A client's email notification settings, as /api/settings changes them. */
  updateNotifications(
    client: ClientRecord,
    notification: { approved?: boolean | undefined; signed?: boolean | undefined },
    cause: string,
  ): ClientRecord {
    return updateNotifications(this.context(cause), client, notification);
  }

  /** The default platform and client (the first of the fixtures), looked up fresh: a reset seeds them again. */
  defaultPlatform(): PlatformRecord | undefined {
    const { apiKey } = this.deps.defaults;
    return apiKey !== undefined ? platformByApiKey(this.services, apiKey) : undefined;
  }

  defaultClient(): ClientRecord | undefined {
    const { clientKey } = this.deps.defaults;
    return clientKey !== undefined ? this.services.store.clients.get(clientKey) : undefined;
  }

  // ---- API faults -----------------------------------------------------------------------------------------

  /** One fault, or several as `{faults: [...]}` or an array; returns their ids. */
  addFaults(input: unknown, source = 'control', seed?: number): string[] {
    const specs: FaultSpec[] = Array.isArray(input)
      ? input.map((s) => parseWith(faultSpec(), s))
      : input !== null && typeof input === 'object' && 'faults' in input
        ? parseWith(faultList(), input).faults
        : [parseWith(faultSpec(), input)];
    return specs.map((spec) => this.deps.faults.add(spec, source, seed));
  }

  removeFault(id: string): void {
    if (!this.deps.faults.remove(id)) throw ApiError.notFound(`No fault with id ${quote(id)}`);
  }

  /** Removes every fault, or those of one source (a scenario's); returns how many. */
  clearFaults(source?: string): number {
    return this.deps.faults.clear(source);
  }

  faults(source?: string): FaultView[] {
    return this.deps.faults.list().filter((f) => source === undefined || f.source === source);
  }

  // ---- the outbox (decisions §9) --------------------------------------------------------------------------

  emails(input: unknown = {}): Email[] {
    const filter = parseWith(emailQuery(), input);
    // An empty query parameter (`?to=`) filters nothing.
    return this.deps.outbox.list({
      to: filter.to || undefined,
      contractKey: filter.contractKey || undefined,
      recipientKey: filter.recipientKey || undefined,
      kind: filter.kind || undefined,
    });
  }

  clearEmails(): number {
    const cleared = this.deps.outbox.size;
    this.deps.outbox.clear();
    return cleared;
  }

  // ---- webhook deliveries ---------------------------------------------------------------------------------

  /** `input`: a DeliveryQuery (query parameters are strings; validated here). */
  deliveries(input: unknown = {}): DeliveryView[] {
    return this.deps.webhooks.deliveries(parseWith(deliveryQuery(), input));
  }

  delivery(id: string): DeliveryView {
    const delivery = this.deps.webhooks.delivery(id);
    if (!delivery) throw ApiError.notFound(`Webhook delivery ${quote(id)} not found`);
    return delivery;
  }

  redeliver(id: string): Promise<DeliveryView> {
    return this.deps.webhooks.redeliver(id);
  }

  /** A receiver goes down (scenarios' `webhookOutage`); returns the outage's id. */
  startOutage(spec: OutageSpec): string {
    return this.deps.webhooks.startOutage(spec);
  }

  endOutage(id: string): void {
    this.deps.webhooks.endOutage(id);
  }

  // ---- receiver faults: deliveries spoilt on purpose, to test the receiver (docs/webhooks.md) -----------------

  /** One receiver fault, or several as `{faults: [...]}` or an array; returns their ids. */
  addReceiverFaults(input: unknown, source = 'control', seed?: number): string[] {
    const specs = Array.isArray(input)
      ? input
      : input !== null && typeof input === 'object' && 'faults' in input
        ? parseWith(receiverFaultList(), input).faults
        : [input];
    // Check every spec before adding any, so one bad spec adds none.
    const parsed = specs.map((spec) => parseWith(receiverFaultSpec(), spec));
    return parsed.map((spec) =>
      this.deps.webhooks.addReceiverFault(spec, source, { seed: seed ?? this.deps.seedOptions.seed ?? 1 }),
    );
  }

  removeReceiverFault(id: string): void {
    if (!this.deps.webhooks.removeReceiverFault(id)) throw ApiError.notFound(`No receiver fault with id ${quote(id)}`);
  }

  clearReceiverFaults(source?: string): number {
    return this.deps.webhooks.clearReceiverFaults(source);
  }

  receiverFaults(source?: string): ReceiverFaultView[] {
    return this.deps.webhooks.listReceiverFaults().filter((f) => source === undefined || f.source === source);
  }

  // ---- the request journal --------------------------------------------------------------------------------

  /** `input`: a JournalFilter (query parameters are strings; validated here). */
  requests(input: unknown = {}): { requests: JournalEntry[]; capacity: number } {
    const filter = parseWith(journalQuery(), input);
    return { requests: this.deps.journal.list(filter), capacity: this.deps.journal.limit };
  }

  /** Empties the journal, or one platform's part of it. */
  clearRequests(input: { apiKey?: string | undefined } = {}): { cleared: 'all' | 'platform' } {
    if (input.apiKey === undefined) {
      this.deps.journal.clear();
      return { cleared: 'all' };
    }
    const platformId = this.deps.journal.platformIdOf(input.apiKey);
    if (!platformId) throw ApiError.notFound('No platform with this apiKey');
    this.deps.journal.clear(platformId);
    return { cleared: 'platform' };
  }
}

/** `"<platformId>/<sha256>"` of every uploaded file a contract or template refers to. */
function referencedDocuments(data: StoreData): Set<string> {
  const used = new Set<string>();
  for (const r of [...Object.values(data.contracts), ...Object.values(data.templates)])
    if (r.document) used.add(`${r.platformId}/${r.document.sha256}`);
  return used;
}

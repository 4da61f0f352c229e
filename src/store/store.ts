/**
 * The store: the only code that touches lowdb. In memory by default; with a data file, every change
 * schedules one coalesced, atomic write (lowdb's file adapter writes a temp file and renames it, so the
 * file is never left half-written). Many changes inside one flush window cost one write.
 */
import { existsSync } from 'node:fs';
import { Low, Memory } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import {
  type ClientRecord,
  type ContractRecord,
  type PlaceholderRecord,
  type PlatformRecord,
  type RecipientRecord,
  type StoreData,
  type TemplateRecord,
  type TokenRecord,
  type UserRecord,
  type WebhookRecord,
  COLLECTIONS,
  emptyData,
} from './records.js';
import { Table } from './table.js';

export interface StoreOptions {
  /** JSON file to persist to; in memory when absent. */
  file?: string;
  /** Longest time an acknowledged change waits before it is written (ms). */
  flushMs?: number;
}

export const DEFAULT_FLUSH_MS = 50;

export class Store {
  private readonly db: Low<StoreData>;
  private readonly flushMs: number;
  private flushTimer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;
  private dirty = false;
  readonly persistent: boolean;

  readonly platforms: Table<PlatformRecord>;
  readonly clients: Table<ClientRecord>;
  readonly users: Table<UserRecord>;
  readonly contracts: Table<ContractRecord>;
  readonly recipients: Table<RecipientRecord>;
  readonly placeholders: Table<PlaceholderRecord>;
  readonly templates: Table<TemplateRecord>;
  readonly webhooks: Table<WebhookRecord>;
  readonly tokens: Table<TokenRecord>;

  private constructor(db: Low<StoreData>, options: StoreOptions) {
    this.db = db;
    this.persistent = options.file !== undefined;
    this.flushMs = options.flushMs ?? DEFAULT_FLUSH_MS;
    const data = db.data;
    const changed = () => this.markDirty();
    this.platforms = new Table(data.platforms, (r) => r.platformId, { apiKey: (r) => r.apiKey }, changed);
    this.clients = new Table(data.clients, (r) => r.clientKey, { platform: (r) => r.platformId }, changed);
    this.users = new Table(data.users, (r) => r.userKey, { client: (r) => r.clientKey }, changed);
    this.contracts = new Table(data.contracts, (r) => r.contractKey, { client: (r) => r.clientKey }, changed);
    this.recipients = new Table(data.recipients, (r) => r.recipientKey, { contract: (r) => r.contractKey }, changed);
    this.placeholders = new Table(
      data.placeholders,
      (r) => r.placeholderKey,
      { contract: (r) => r.contractKey, template: (r) => r.templateKey },
      changed,
    );
    this.templates = new Table(data.templates, (r) => r.templateKey, { client: (r) => r.clientKey }, changed);
    this.webhooks = new Table(data.webhooks, (r) => r.webhookKey, { client: (r) => r.clientKey }, changed);
    this.tokens = new Table(data.tokens, (r) => r.token, { platform: (r) => r.platformId }, changed);
  }

  /** Opens a store. `loaded` tells whether an existing data file was read (so fixtures are not applied again). */
  static async open(options: StoreOptions = {}): Promise<{ store: Store; loaded: boolean }> {
    const adapter = options.file ? new JSONFile<StoreData>(options.file) : new Memory<StoreData>();
    const db = new Low<StoreData>(adapter, emptyData());
    let loaded = false;
    if (options.file && existsSync(options.file)) {
      await db.read();
      loaded = db.data !== null && typeof db.data === 'object';
      db.data = normalise(loaded ? db.data : emptyData());
    }
    return { store: new Store(db, options), loaded };
  }

  /** The live state object (for snapshots; treat as read-only). */
  get data(): StoreData {
    return this.db.data;
  }

  /** Replaces the whole state (reset, restore) and rebuilds the indexes. */
  replace(data: StoreData): void {
    this.db.data = normalise(data);
    const d = this.db.data;
    this.platforms.rebuild(d.platforms);
    this.clients.rebuild(d.clients);
    this.users.rebuild(d.users);
    this.contracts.rebuild(d.contracts);
    this.recipients.rebuild(d.recipients);
    this.placeholders.rebuild(d.placeholders);
    this.templates.rebuild(d.templates);
    this.webhooks.rebuild(d.webhooks);
    this.tokens.rebuild(d.tokens);
    this.markDirty();
  }

  /** Writes pending changes now and waits until they are on disk. */
  async flush(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    while (this.dirty || this.writing) {
      if (this.writing) {
        await this.writing;
        continue;
      }
      await this.writeNow();
    }
  }

  async close(): Promise<void> {
    await this.flush();
  }

  private markDirty(): void {
    if (!this.persistent) return;
    this.dirty = true;
    if (this.flushTimer || this.writing) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      void this.writeNow();
    }, this.flushMs);
  }

  private writeNow(): Promise<void> {
    this.dirty = false;
    const write = this.db
      .write()
      .catch((error: unknown) => {
        // Keep the change pending so the next flush tries again; never crash the server over a disk hiccup.
        this.dirty = true;
        process.emitWarning(`esign-sandbox: could not write the data file: ${String(error)}`);
      })
      .finally(() => {
        this.writing = undefined;
        if (this.dirty && !this.flushTimer) {
          this.flushTimer = setTimeout(() => {
            this.flushTimer = undefined;
            void this.writeNow();
          }, this.flushMs);
        }
      });
    this.writing = write;
    return write;
  }
}

/** Fills in collections a file written by an older or hand-edited version may lack. */
function normalise(data: Partial<StoreData>): StoreData {
  const out = { ...emptyData(), ...data } as StoreData;
  for (const name of COLLECTIONS) {
    const value = out[name] as unknown;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) (out as unknown as Record<string, unknown>)[name] = {};
  }
  return out;
}

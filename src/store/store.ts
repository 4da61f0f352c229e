/**
 * The store: the state as one plain object of collections, in memory by default; with a data file, changes are
 * persisted by `Persistence` (persist.ts): a JSON snapshot that is only ever replaced atomically, plus a journal
 * of changed records appended once per flush window, so a request costs the same with 10 or 100,000 records
 * stored. Nothing outside store/ knows how.
 */
import type { Keeper, KeptCollection, KeptState } from '../core/kept.js';
import { Persistence, loadState } from './persist.js';
import { type Client, PgPersistence, loadState as loadFromDatabase } from './postgres.js';
import type { KeptData } from './replay.js';
import { SnapshotFile } from './snapshot-file.js';
import {
  type ClientRecord,
  type CollectionName,
  type ContractRecord,
  type PlaceholderRecord,
  type PlatformRecord,
  type RecipientRecord,
  type ShareLinkRecord,
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
  /** Longest time an acknowledged change waits before its write to the data file starts (ms). */
  flushMs?: number;
  /** Journal size (bytes) below which it is never compacted; tests lower it. */
  minCompactBytes?: number;
  /**
   * Team mode (docs/team-sandbox.md): the state in PostgreSQL, read and written on this connection (the leader's);
   * `onFailure` hears a commit that failed.
   */
  postgres?: { client: Client; onFailure: (error: unknown) => void };
}

/** What writes the store's changes: the data file's journal (persist.ts) or the team's database (postgres.ts). */
interface Writer {
  changed(collection: string, key: string): void;
  replaced(): void;
  flush(): Promise<void>;
  close(): Promise<void>;
  abandon(): Promise<void>;
}

export const DEFAULT_FLUSH_MS = 50;

/** A record of the collection `K`. */
type RowOf<K extends CollectionName> = StoreData[K][string] & object;

export class Store implements KeptState {
  private state: StoreData;
  private persistence: Writer | undefined;
  readonly persistent: boolean;
  /** The in-flight collections the subsystems keep beside the records (core/kept.ts), in registration order. */
  private readonly kept = new Map<string, KeptCollection>();
  /** What the data file held for them, until `restoreKept` hands it back. */
  private keptOnFile: KeptData = {};

  readonly platforms: Table<PlatformRecord>;
  readonly clients: Table<ClientRecord>;
  readonly users: Table<UserRecord>;
  readonly contracts: Table<ContractRecord>;
  readonly recipients: Table<RecipientRecord>;
  readonly placeholders: Table<PlaceholderRecord>;
  readonly templates: Table<TemplateRecord>;
  readonly webhooks: Table<WebhookRecord>;
  readonly tokens: Table<TokenRecord>;
  readonly shareLinks: Table<ShareLinkRecord>;

  private constructor(data: StoreData, persistent: boolean, kept: KeptData = {}) {
    this.state = data;
    this.keptOnFile = kept;
    this.persistent = persistent;
    // Each table reports the key of every record it inserts, updates or deletes: that is what gets journaled.
    const rows: { [K in CollectionName]: Record<string, RowOf<K>> } = data;
    const table = <K extends CollectionName>(
      name: K,
      keyOf: (record: RowOf<K>) => string,
      indexes: Record<string, (record: RowOf<K>) => string | undefined>,
    ) => new Table(rows[name], keyOf, indexes, (key) => this.persistence?.changed(name, key));
    // Every record but a platform's belongs to one: a tenant's reset finds its records by this index, in the time
    // its own records take, however many other tenants share the sandbox (store/tenant.ts).
    const platform = (r: { platformId: string }) => r.platformId;
    this.platforms = table('platforms', (r) => r.platformId, { apiKey: (r) => r.apiKey });
    this.clients = table('clients', (r) => r.clientKey, { platform });
    this.users = table('users', (r) => r.userKey, { platform, client: (r) => r.clientKey });
    this.contracts = table('contracts', (r) => r.contractKey, { platform, client: (r) => r.clientKey });
    this.recipients = table('recipients', (r) => r.recipientKey, { platform, contract: (r) => r.contractKey });
    this.placeholders = table('placeholders', (r) => r.placeholderKey, {
      platform,
      contract: (r) => r.contractKey,
      template: (r) => r.templateKey,
    });
    this.templates = table('templates', (r) => r.templateKey, { platform, client: (r) => r.clientKey });
    this.webhooks = table('webhooks', (r) => r.webhookKey, { platform, client: (r) => r.clientKey });
    this.tokens = table('tokens', (r) => r.token, { platform });
    // Keyed by the link itself, so resolving a link is one lookup; the contract index lists a contract's links,
    // the controlLink index finds a link's contract from the key the components send for it.
    this.shareLinks = table('shareLinks', (r) => r.shareLink, {
      platform,
      contract: (r) => r.contractKey,
      controlLink: (r) => r.controlLink,
    });
  }

  /** Opens a store. `loaded` tells whether an existing data file was read (so fixtures are not applied again). */
  static async open(options: StoreOptions = {}): Promise<{ store: Store; loaded: boolean }> {
    if (options.postgres) {
      const { client, onFailure } = options.postgres;
      const state = await loadFromDatabase(client);
      const store = new Store(normalise(state?.data ?? emptyData()), true, state?.kept);
      store.persistence = new PgPersistence(client, { records: () => store.state, kept: store.kept }, onFailure);
      return { store, loaded: state !== null };
    }
    if (!options.file) return { store: new Store(emptyData(), false), loaded: false };
    const snapshot = new SnapshotFile(options.file);
    const journalFile = `${options.file}.journal`;
    // The snapshot, with the journal's changes replayed on top of it.
    const state = await loadState(snapshot, journalFile);
    const loaded = state.data !== null;
    const store = new Store(normalise(state.data?.data ?? emptyData()), true, state.data?.kept);
    const persistence = new Persistence(
      snapshot,
      journalFile,
      { records: () => store.state, kept: store.kept },
      {
        flushMs: options.flushMs ?? DEFAULT_FLUSH_MS,
        ...(options.minCompactBytes !== undefined ? { minCompactBytes: options.minCompactBytes } : {}),
        // Never crash the server over a disk hiccup: the changes stay pending and the next flush tries again.
        onError: (error) => process.emitWarning(`esign-sandbox: could not write the data file: ${String(error)}`),
      },
      { snapshotExists: snapshot.bytes > 0, journalBytes: state.validBytes, rotatedExists: state.rotatedExists },
    );
    await persistence.start(state.validBytes);
    store.persistence = persistence;
    return { store, loaded };
  }

  /** A name registered again (a part built twice over one store, as tests do) now names the later collection. */
  keep(name: string, collection: KeptCollection): Keeper {
    if ((COLLECTIONS as readonly string[]).includes(name)) throw new Error(`${name} is a record collection`);
    this.kept.set(name, collection);
    return { changed: (key) => this.persistence?.changed(name, key) };
  }

  /**
   * Hands the in-flight records the data file held back to the collections that kept them, in the order they
   * registered (clocks before the timers on them), each collection's records oldest first. Once, after every
   * subsystem has registered; what no collection claims (a newer version's) is dropped with the next snapshot.
   */
  restoreKept(): void {
    const onFile = this.keptOnFile;
    this.keptOnFile = {};
    for (const [name, collection] of this.kept) {
      const records = onFile[name];
      if (!records) continue;
      for (const [key, record] of Object.entries(records)) collection.restore(key, record);
      collection.restored?.();
    }
  }

  /** Every in-flight record (a snapshot), by collection then key, but those of the collections in `except`. */
  keptRecords(except: readonly string[] = []): KeptData {
    const out: KeptData = {};
    for (const [name, collection] of this.kept) {
      if (except.includes(name)) continue;
      const records: Record<string, unknown> = {};
      for (const key of collection.keys()) {
        const record = collection.record(key);
        if (record !== undefined) records[key] = structuredClone(record);
      }
      out[name] = records;
    }
    return out;
  }

  /**
   * In-flight records put back (a snapshot restored): every collection `data` names is emptied first (all of them,
   * before any gets its records, since emptying one may reach into another: a scenario unloaded takes its faults
   * with it), then each gets its records back, in registration order. Collections it does not name are left as
   * they are; names no collection has are ignored.
   */
  replaceKept(data: KeptData, except: readonly string[] = []): void {
    const named = [...this.kept].filter(([name]) => !except.includes(name) && data[name] !== undefined);
    for (const [, collection] of [...named].reverse()) collection.clear?.();
    for (const [name, collection] of named) {
      for (const [key, record] of Object.entries(data[name]!)) collection.restore(key, structuredClone(record));
      collection.restored?.();
    }
  }

  /** Whether the data file held in-flight state of this collection (a start decides what to set up again by it). */
  keptOnFileHas(name: string): boolean {
    return Object.keys(this.keptOnFile[name] ?? {}).length > 0;
  }

  /** The live state object (for snapshots; treat as read-only). */
  get data(): StoreData {
    return this.state;
  }

  /** Replaces the whole state (reset, restore) and rebuilds the indexes. */
  replace(data: StoreData): void {
    this.state = normalise(data);
    const d = this.state;
    this.platforms.rebuild(d.platforms);
    this.clients.rebuild(d.clients);
    this.users.rebuild(d.users);
    this.contracts.rebuild(d.contracts);
    this.recipients.rebuild(d.recipients);
    this.placeholders.rebuild(d.placeholders);
    this.templates.rebuild(d.templates);
    this.webhooks.rebuild(d.webhooks);
    this.tokens.rebuild(d.tokens);
    this.shareLinks.rebuild(d.shareLinks);
    this.persistence?.replaced();
  }

  /** Writes pending changes now and waits until they are on disk. */
  async flush(): Promise<void> {
    await this.persistence?.flush();
  }

  /** Flushes everything, folds the journal into the snapshot and releases the files. */
  async close(): Promise<void> {
    const persistence = this.persistence;
    this.persistence = undefined;
    await persistence?.close();
  }

  /** Releases the data file without writing pending changes, as a killed process would (for crash tests). */
  async abandon(): Promise<void> {
    const persistence = this.persistence;
    this.persistence = undefined;
    await persistence?.abandon();
  }
}

/** Fills in collections a file written by an older or hand-edited version may lack. */
function normalise(data: Partial<StoreData>): StoreData {
  const out = { ...emptyData(), ...data } as StoreData;
  for (const name of COLLECTIONS) {
    const value = out[name] as unknown;
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      (out as unknown as Record<string, unknown>)[name] = {};
  }
  return out;
}

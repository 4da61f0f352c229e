/**
 * The team sandbox's state in PostgreSQL (docs/team-sandbox.md): the same records and kept in-flight collections a
 * data file holds (docs/persistence.md), one row per record, and the uploaded documents, one row per file. Only the
 * replica that holds the leader's lock (team/election.ts) reads and writes them, on the very connection that holds
 * the lock: if that connection dies, PostgreSQL drops the lock and the replica's writes fail with it, so two replicas
 * never both write.
 *
 * Writes are committed before the answer that made them leaves (`PgPersistence.flush`, called by the replica for
 * each request): every change since the last commit goes in one statement, so requests answered together share a
 * commit. Each row keeps the order it was first written in (`n`), which is the order of a table's records and of a
 * kept collection's (deliveries, journal entries) when they are read back.
 */
import { ConfigError } from '../config/options.js';
import { VERSION } from '../config/version.js';
import type { PersistedSource } from './persist.js';
import { COLLECTIONS, type StoreData } from './records.js';
import { type LoadedData, emptyShape, rowsOf } from './replay.js';
import { getOrAdd } from '../core/maps.js';

/**
 * The little of node-postgres's `Client` the team mode uses: its own types stay out of the shipped `.d.ts` files, so
 * a library user needs no `pg` types.
 */
export interface Client {
  query<R = Record<string, unknown>>(
    query: string | { text: string; rowMode: 'array' },
    values?: unknown[],
  ): Promise<{ rows: R[] }>;
  end(): Promise<void>;
  on(event: 'error' | 'end', listener: (error?: unknown) => void): unknown;
}

/** The schema this build writes and reads; a database of a newer one is refused (`prepareDatabase`). */
export const SCHEMA_VERSION = 1;

/** Each step takes the schema from version i to i + 1. */
const MIGRATIONS: readonly (readonly string[])[] = [
  [
    `CREATE TABLE esign_sandbox_state (
       collection text NOT NULL, key text NOT NULL, value text NOT NULL, n bigserial NOT NULL,
       PRIMARY KEY (collection, key))`,
    'CREATE INDEX esign_sandbox_state_n ON esign_sandbox_state (n)',
    `CREATE TABLE esign_sandbox_documents (
       platform_id text NOT NULL, sha256 text NOT NULL, bytes bytea NOT NULL, PRIMARY KEY (platform_id, sha256))`,
  ],
];

/** Advisory lock keys (two int4s): ours is 'esig' (0x65736967), then what it guards. */
export const LOCKS = { migration: [0x65736967, 1], leader: [0x65736967, 2] } as const;

/** A connection to the database named by `url` (pg is loaded now: only team mode pays for it). */
export async function connect(url: string, role: string): Promise<Client> {
  const pg = await import('./pg-driver.js');
  const client = new pg.Client({
    connectionString: url,
    application_name: `esign-sandbox ${role}`,
    // A peer that vanished without closing the connection is noticed by the operating system's keep-alive.
    keepAlive: true,
    connectionTimeoutMillis: 5_000,
  });
  // An error on an idle connection (the server went away) must not crash the process: the replica asks again.
  client.on('error', () => undefined);
  await client.connect();
  return client as unknown as Client;
}

/** The URL without its password, for messages. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    u.password = '';
    return u.toString().replace(/:@/, '@');
  } catch {
    return 'the --store database';
  }
}

/**
 * Creates the schema, or migrates it to this build's version, under a lock so replicas starting together do it
 * once. A database written by a newer esign-sandbox is refused with one sentence: this build would misread it.
 */
export async function prepareDatabase(client: Client, url: string): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1, $2)', [...LOCKS.migration]);
    await client.query('CREATE TABLE IF NOT EXISTS esign_sandbox_meta (key text PRIMARY KEY, value text NOT NULL)');
    const { rows } = await client.query<{ value: string }>(
      "SELECT value FROM esign_sandbox_meta WHERE key = 'schema_version'",
    );
    const version = rows[0] ? Number(rows[0].value) : 0;
    if (!Number.isInteger(version) || version > SCHEMA_VERSION)
      throw new ConfigError(
        `The database ${describeUrl(url)} holds esign-sandbox state of schema version ${rows[0]?.value}, newer than this esign-sandbox ${VERSION} reads (up to ${SCHEMA_VERSION}): upgrade esign-sandbox on every replica, or point --store at another database`,
      );
    for (let v = version; v < SCHEMA_VERSION; v++) for (const sql of MIGRATIONS[v]!) await client.query(sql);
    await client.query(
      `INSERT INTO esign_sandbox_meta (key, value) VALUES ('schema_version', $1)
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
      [String(SCHEMA_VERSION)],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** Reads a value of the meta table (the leader's address). */
export async function readMeta(client: Client, key: string): Promise<string | undefined> {
  const { rows } = await client.query<{ value: string }>('SELECT value FROM esign_sandbox_meta WHERE key = $1', [key]);
  return rows[0]?.value;
}

export async function writeMeta(client: Client, key: string, value: string): Promise<void> {
  await client.query(
    'INSERT INTO esign_sandbox_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value',
    [key, value],
  );
}

/** Every record and kept record, in the order each was first written; null when the database holds none yet. */
export async function loadState(client: Client): Promise<LoadedData | null> {
  const { rows } = await client.query<[string, string, string]>({
    text: 'SELECT collection, key, value FROM esign_sandbox_state ORDER BY n',
    rowMode: 'array',
  });
  if (rows.length === 0) return null;
  const state: LoadedData = { data: emptyShape(), kept: {} };
  for (const [collection, key, value] of rows) {
    rowsOf(state, collection)[key] = JSON.parse(value);
  }
  return state;
}

/** Records written per statement when the whole state is written (after a reset or a restore). */
const BATCH = 5_000;

/**
 * The writer of the team mode, with the file writer's face (persist.ts): told which records changed, it commits
 * them at once, a batch per statement, and `flush()` resolves once everything changed so far is committed. A commit
 * that fails is told to `onFailure` (the replica steps down: its memory holds what the database does not) and
 * rejects `flush()`.
 */
export class PgPersistence {
  private readonly dirty = new Map<string, Set<string>>();
  private whole = false;
  private running: Promise<void> | undefined;
  private scheduled = false;
  private broken: unknown;

  constructor(
    private readonly client: Client,
    private readonly source: PersistedSource,
    private readonly onFailure: (error: unknown) => void,
  ) {}

  get pending(): boolean {
    return this.whole || this.dirty.size > 0;
  }

  changed(collection: string, key: string): void {
    const keys = getOrAdd(this.dirty, collection, () => new Set());
    keys.add(key);
    this.schedule();
  }

  /** The whole state was replaced (reset, restore): the next commit writes all of it. */
  replaced(): void {
    this.whole = true;
    this.dirty.clear();
    this.schedule();
  }

  /** Resolves once every change made so far is committed; rejects when a commit failed. */
  async flush(): Promise<void> {
    while (this.running || this.pending) {
      if (this.broken !== undefined) throw this.broken;
      if (!this.running) this.run();
      await this.running;
    }
    if (this.broken !== undefined) throw this.broken;
  }

  async close(): Promise<void> {
    await this.flush();
  }

  /** Lets go without committing what is pending (the replica lost the database or steps down). */
  async abandon(): Promise<void> {
    this.broken ??= new Error('the replica let go of the database');
    this.dirty.clear();
    this.whole = false;
    await this.running?.catch(() => undefined);
  }

  /** Changes of one synchronous stretch of work go together: the commit starts once it has finished. */
  private schedule(): void {
    if (this.scheduled || this.running || this.broken !== undefined) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (!this.running && this.pending) this.run();
    });
  }

  private run(): void {
    this.running = this.commit()
      .catch((error: unknown) => {
        this.broken ??= error;
        this.onFailure(error);
      })
      .finally(() => {
        this.running = undefined;
        if (this.pending && this.broken === undefined) this.schedule();
      });
  }

  private async commit(): Promise<void> {
    if (this.whole) {
      this.whole = false;
      this.dirty.clear();
      await this.writeWhole();
      return;
    }
    const upsert: [string[], string[], string[]] = [[], [], []];
    const remove: [string[], string[]] = [[], []];
    const data = this.source.records();
    for (const [collection, keys] of this.dirty) {
      const isRecord = (COLLECTIONS as readonly string[]).includes(collection);
      const rows = isRecord ? (data[collection as keyof StoreData] as Record<string, unknown>) : undefined;
      const kept = isRecord ? undefined : this.source.kept.get(collection);
      for (const key of keys) {
        const record = rows ? (Object.hasOwn(rows, key) ? rows[key] : undefined) : kept?.record(key);
        if (record === undefined) {
          remove[0].push(collection);
          remove[1].push(key);
        } else {
          upsert[0].push(collection);
          upsert[1].push(key);
          upsert[2].push(JSON.stringify(record));
        }
      }
    }
    this.dirty.clear();
    // One statement: atomic without a transaction's extra round trips.
    await this.client.query(
      `WITH gone AS (
         DELETE FROM esign_sandbox_state s USING unnest($1::text[], $2::text[]) AS d(collection, key)
         WHERE s.collection = d.collection AND s.key = d.key)
       INSERT INTO esign_sandbox_state (collection, key, value)
       SELECT * FROM unnest($3::text[], $4::text[], $5::text[])
       ON CONFLICT (collection, key) DO UPDATE SET value = EXCLUDED.value`,
      [remove[0], remove[1], upsert[0], upsert[1], upsert[2]],
    );
  }

  private async writeWhole(): Promise<void> {
    const rows: [string, string, string][] = [];
    const data = this.source.records();
    for (const name of COLLECTIONS)
      for (const [key, record] of Object.entries(data[name] as Record<string, unknown>))
        rows.push([name, key, JSON.stringify(record)]);
    for (const [name, collection] of this.source.kept)
      for (const key of [...collection.keys()]) {
        const record = collection.record(key);
        if (record !== undefined) rows.push([name, key, JSON.stringify(record)]);
      }
    await this.client.query('BEGIN');
    try {
      await this.client.query('DELETE FROM esign_sandbox_state');
      for (let i = 0; i < rows.length; i += BATCH) {
        const batch = rows.slice(i, i + BATCH);
        await this.client.query(
          'INSERT INTO esign_sandbox_state (collection, key, value) SELECT * FROM unnest($1::text[], $2::text[], $3::text[])',
          [batch.map((r) => r[0]), batch.map((r) => r[1]), batch.map((r) => r[2])],
        );
      }
      await this.client.query('COMMIT');
    } catch (error) {
      await this.client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }
}

/** The uploaded documents in the database: the document store's files (documents.ts `DocumentFiles`). */
export function pgDocumentFiles(client: Client) {
  return {
    async load(): Promise<{ platformId: string; sha: string; bytes: Uint8Array }[]> {
      const { rows } = await client.query<{ platform_id: string; sha256: string; bytes: Buffer }>(
        'SELECT platform_id, sha256, bytes FROM esign_sandbox_documents',
      );
      return rows.map((r) => ({ platformId: r.platform_id, sha: r.sha256, bytes: new Uint8Array(r.bytes) }));
    },
    async write(platformId: string, sha: string, bytes: Uint8Array): Promise<void> {
      await client.query(
        'INSERT INTO esign_sandbox_documents (platform_id, sha256, bytes) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
        [platformId, sha, Buffer.from(bytes)],
      );
    },
    async removeAll(): Promise<void> {
      await client.query('DELETE FROM esign_sandbox_documents');
    },
    async removePlatform(platformId: string): Promise<void> {
      await client.query('DELETE FROM esign_sandbox_documents WHERE platform_id = $1', [platformId]);
    },
  };
}

/**
 * The snapshot file of the store's persistence (persist.ts, docs/persistence.md): read whole, written through a
 * temporary file, and serialised a slice of records at a time.
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ConfigError } from '../config/options.js';
import type { KeptCollection } from '../core/kept.js';
import { COLLECTIONS, type StoreData } from './records.js';
import { replaceFile } from './atomic-file.js';
import { type LoadedData, splitSnapshot } from './replay.js';

/**
 * The snapshot file. It is replaced through a temporary file that is fsynced before it is renamed over the data
 * file (and the folder after), so the snapshot survives power loss, not only a killed process; it carries the
 * journal generation in the file without putting it into the live data.
 */
export class SnapshotFile {
  generation = 0;
  /** Size of the last snapshot read or written, in bytes. */
  bytes = 0;
  readonly tmp: string;

  constructor(readonly file: string) {
    this.tmp = join(dirname(file), `.${basename(file)}.tmp`);
  }

  async read(): Promise<LoadedData | null> {
    let bytes: Buffer;
    try {
      bytes = await readFile(this.file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(bytes.toString('utf8'));
    } catch (error) {
      throw new ConfigError(
        `Data file ${this.file} is not valid JSON (${(error as Error).message}); move it away or fix it`,
      );
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new ConfigError(`Data file ${this.file} does not hold a JSON object`);
    }
    const { data, kept, generation } = splitSnapshot(parsed as Record<string, unknown>);
    this.generation = generation;
    this.bytes = bytes.length;
    return { data, kept };
  }

  /** Replaces the file with a snapshot's chunks (`snapshotChunks`): temporary file, fsync, rename, fsync of the folder. */
  async write(chunks: AsyncIterable<string>): Promise<void> {
    this.bytes = await replaceFile(this.file, this.tmp, chunks);
  }
}

/** Records serialised per chunk while writing a snapshot: the event loop is free while each chunk is written. */
const SLICE = 2000;

/**
 * The snapshot's JSON in chunks of SLICE records, so that writing a snapshot of 100,000 records neither stalls
 * requests for the time one JSON.stringify of the whole store takes nor holds the whole file as one string: each
 * chunk is written (replaceFile) before the next is made. It was one string of every chunk joined (up to 2026-11-28),
 * a second copy of the snapshot in memory encoded in one more pass: writing a 49 MB snapshot (100,000 contracts and
 * the bounded delivery log) took 590–640 ms of CPU and a 309 MB heap that way, 295–330 ms and 109 MB in chunks; the
 * 13.6 MB of the --data fan-out bench 87–91 ms and 74 MB, 67–81 ms and 43 MB (2026-11-28, 8 writes each, one build then the other).
 * Each record is read when its chunk is made. A record changed meanwhile is also in the dirty set, so the journal
 * line written after the snapshot carries its latest state and replay ends there; a record deleted meanwhile is
 * skipped here and journaled as deleted; one inserted meanwhile is journaled.
 */
export async function* snapshotChunks(
  data: StoreData,
  generation: number,
  kept: ReadonlyMap<string, KeptCollection> = new Map(),
): AsyncGenerator<string> {
  let chunk = '{';
  let count = 0;
  /** `"key":record` entries of one collection, the chunk handed out every SLICE records. */
  async function* entries(keys: Iterable<string>, record: (key: string) => unknown): AsyncGenerator<string> {
    let separator = '';
    for (const key of keys) {
      const value = record(key);
      if (value === undefined) continue;
      chunk += `${separator}${JSON.stringify(key)}:${JSON.stringify(value)}`;
      separator = ',';
      if (++count % SLICE === 0) {
        yield chunk;
        chunk = '';
      }
    }
  }
  for (const [name, value] of Object.entries(data)) {
    if (name === 'generation') continue;
    if (!(COLLECTIONS as readonly string[]).includes(name) || value === null || typeof value !== 'object') {
      chunk += `${JSON.stringify(name)}:${JSON.stringify(value)},`;
      continue;
    }
    const rows = value as Record<string, unknown>;
    chunk += `${JSON.stringify(name)}:{`;
    yield* entries(Object.keys(rows), (key) => (Object.hasOwn(rows, key) ? rows[key] : undefined));
    chunk += '},';
  }
  // The in-flight state (core/kept.ts), each record as its collection gives it now.
  if (kept.size > 0) {
    chunk += '"kept":{';
    let separator = '';
    for (const [name, collection] of kept) {
      chunk += `${separator}${JSON.stringify(name)}:{`;
      separator = ',';
      yield* entries([...collection.keys()], (key) => collection.record(key));
      chunk += '}';
    }
    chunk += '},';
  }
  yield `${chunk}"generation":${generation}}`;
}

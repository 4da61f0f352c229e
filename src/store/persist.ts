/**
 * Persistence of the store to a data file: a JSON snapshot (replaced atomically) plus an append-only journal of changed records beside it (`<file>.journal`, JSON lines). See docs/persistence.md.
 *
 * Why a journal: rewriting the whole snapshot on every flush costs O(store) per flush, so the cost of a
 * request would grow with the store. Instead each flush appends one line holding the records that changed
 * since the last flush (their state at flush time, so many changes to one record cost one entry), and the
 * journal is folded into a fresh snapshot once it has grown as large as the snapshot itself: every byte of
 * snapshot written is paid for by at least as many bytes of journal, so the work per change stays O(1)
 * amortised however large the store gets.
 *
 * Why generations: compaction writes the new snapshot (atomic rename) and then empties the journal. A crash
 * between the two leaves an old journal beside a newer snapshot; its lines carry the older generation and are
 * skipped on load, so stale record states never overwrite newer ones.
 *
 * Compaction runs on the main thread, a chunk of records written at a time (`snapshotChunks`), while appends
 * go on beside it (`rotate`). It used to run on a worker thread at a lowered priority; removing that cost less
 * than 10 % on every `--data` figure (docs/benchmarks.md, "Performance devices").
 */
import { type FileHandle, open, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { monotonicNow } from '../core/wall-time.js';
import { ConfigError } from '../config/options.js';
import type { KeptCollection } from '../core/kept.js';
import { COLLECTIONS, type StoreData } from './records.js';
import { readIfExists, syncFolder } from './atomic-file.js';
import { DamagedJournalError, type JournalLine, type LoadedData, replayJournal } from './replay.js';
import { type SnapshotFile, snapshotChunks } from './snapshot-file.js';
import { getOrAdd } from '../core/maps.js';

/** Smallest journal worth compacting: below this, replaying it on start is cheaper than rewriting the snapshot. */
export const MIN_COMPACT_BYTES = 16 * 1024 * 1024;

export interface LoadedState {
  /** The records and the in-flight state kept beside them; null when there is no data file yet. */
  data: LoadedData | null;
  /** Journal lines replayed on top of the snapshot. */
  replayed: number;
  /** Bytes of whole lines in the live journal (a torn tail is cut off from there). */
  validBytes: number;
  /** A journal set aside for a compaction that did not finish (the process died meanwhile) was found. */
  rotatedExists: boolean;
}

/** The journal set aside while a compaction writes the next snapshot (see `Persistence.rotate`). */
export function rotatedJournal(journalFile: string): string {
  return `${journalFile}.compacting`;
}

/**
 * Reads the snapshot, then replays the journal set aside for a compaction (if the process died during one) and
 * the live journal, in that order, keeping the lines of the snapshot's generation or newer. Afterwards the
 * snapshot's `generation` is raised to the newest generation seen, so that lines appended from now on, and the
 * next snapshot, are never older than a line already on disk. A last line that does not parse is a write torn
 * by a crash: it is cut off. A bad line anywhere else means the file was damaged by hand.
 */
export async function loadState(snapshot: SnapshotFile, journalFile: string): Promise<LoadedState> {
  let data = await snapshot.read();
  const minGeneration = snapshot.generation;
  let replayed = 0;
  let validBytes = 0;
  let rotatedExists = false;
  let newest = snapshot.generation;
  for (const file of [rotatedJournal(journalFile), journalFile]) {
    const text = await readIfExists(file);
    if (text === undefined) continue;
    let result: ReturnType<typeof replayJournal>;
    try {
      result = replayJournal(data, text, minGeneration);
    } catch (error) {
      if (error instanceof DamagedJournalError) {
        throw new ConfigError(
          `Journal ${file} is damaged at line ${error.line}; move it away to start from the snapshot alone`,
        );
      }
      throw error;
    }
    data = result.state;
    replayed += result.replayed;
    newest = Math.max(newest, result.maxGeneration);
    if (file === journalFile) validBytes = result.validBytes;
    else rotatedExists = true;
  }
  snapshot.generation = newest;
  return { data, replayed, validBytes, rotatedExists };
}

/** What the writer reads: the records, and the kept in-flight collections (core/kept.ts). */
export interface PersistedSource {
  records(): StoreData;
  readonly kept: ReadonlyMap<string, KeptCollection>;
}

export interface PersistenceOptions {
  flushMs: number;
  /** Compaction threshold floor (bytes of journal); tests lower it. */
  minCompactBytes?: number;
  onError?: (error: unknown) => void;
}

/**
 * The writer: collects which records changed, and every flush window appends their current state to the
 * journal (one line, one fsync) or, when the journal has outgrown the snapshot, writes a new snapshot.
 * Writes are serialised: one disk operation at a time, in order.
 */
export class Persistence {
  /** Changed keys by collection: a record collection's name (records.ts) or a kept collection's. */
  private readonly dirty = new Map<string, Set<string>>();
  private dirtyCount = 0;
  private needsSnapshot: boolean;
  private journal: FileHandle | undefined;
  private journalBytes: number;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** Monotonic time of the oldest change not yet written. */
  private oldestChange = 0;
  private closed = false;
  private readonly tidyOnStart: boolean;
  private failures = 0;
  private lastError: unknown;
  private readonly minCompactBytes: number;
  private readonly rotatedFile: string;
  /** The compaction writing the next snapshot beside the appends (see `rotate`); never rejects. */
  private compacting: Promise<void> | undefined;

  constructor(
    private readonly snapshot: SnapshotFile,
    private readonly journalFile: string,
    private readonly source: PersistedSource,
    private readonly options: PersistenceOptions,
    state: { snapshotExists: boolean; journalBytes: number; rotatedExists?: boolean },
  ) {
    // A journal left set aside by a compaction the process did not live to finish: fold everything into a
    // snapshot on the first flush (its lines are in memory now), which also removes it.
    this.needsSnapshot = !state.snapshotExists || state.rotatedExists === true;
    this.tidyOnStart = state.rotatedExists === true;
    this.journalBytes = state.journalBytes;
    this.minCompactBytes = options.minCompactBytes ?? MIN_COMPACT_BYTES;
    this.rotatedFile = rotatedJournal(journalFile);
  }

  /** Opens the journal for appending, cutting off a torn tail first. */
  async start(validBytes: number): Promise<void> {
    this.journal = await open(this.journalFile, 'a+');
    const { size } = await this.journal.stat();
    if (size !== validBytes) await this.journal.truncate(validBytes);
    this.journalBytes = validBytes;
    if (this.tidyOnStart) {
      this.dirtyCount = 1;
      this.oldestChange = monotonicNow();
      this.schedule();
    }
  }

  changed(collection: string, key: string): void {
    const keys = getOrAdd(this.dirty, collection, () => new Set());
    if (keys.has(key)) return;
    keys.add(key);
    if (this.dirtyCount++ === 0) this.oldestChange = monotonicNow();
    this.schedule();
  }

  /** The whole state was replaced (reset, restore): the next write is a snapshot. */
  replaced(): void {
    this.needsSnapshot = true;
    this.dirty.clear();
    if (this.dirtyCount === 0) this.oldestChange = monotonicNow();
    this.dirtyCount = 1;
    this.schedule();
  }

  get pending(): boolean {
    return this.dirtyCount > 0 || this.needsSnapshot;
  }

  /** Writes everything pending now (and a compaction under way) and waits for it. */
  async flush(): Promise<void> {
    this.clearTimer();
    let failed = 0;
    while (this.running || this.pending) {
      if (this.running) {
        await this.running;
        continue;
      }
      const before = this.failures;
      this.run();
      await this.running;
      // A disk that keeps refusing (full, read-only) must not hang a graceful stop forever.
      if (this.failures > before && ++failed >= 3) throw this.lastError;
    }
    // A compaction under way is part of what is pending: the data file is complete once it has been renamed.
    if (this.compacting) {
      await this.compacting;
      await this.flush();
    }
  }

  /** Flushes, folds the journal into the snapshot (so the data file alone holds everything) and closes. */
  async close(): Promise<void> {
    await this.flush();
    await this.compacting;
    // A failed compaction leaves a whole snapshot pending.
    await this.flush();
    if (this.journalBytes > 0) {
      this.needsSnapshot = true;
      await this.flush();
    }
    this.closed = true;
    this.clearTimer();
    await this.journal?.close();
    this.journal = undefined;
  }

  /** Lets go of the files without writing what is pending: what a killed process leaves (tests play crashes). */
  async abandon(): Promise<void> {
    this.closed = true;
    this.clearTimer();
    await this.compacting;
    await this.running?.catch(() => undefined);
    await this.journal?.close();
    this.journal = undefined;
  }

  private schedule(): void {
    if (this.timer || this.running || this.closed) return;
    const wait = Math.max(0, this.options.flushMs - (monotonicNow() - this.oldestChange));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.run();
    }, wait);
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private run(): void {
    if (this.running) return;
    this.clearTimer();
    this.running = this.writeOnce()
      .catch((error: unknown) => {
        // Keep the changes pending and start over from a snapshot: a failed append may have left a partial line.
        this.needsSnapshot = true;
        this.dirtyCount = Math.max(this.dirtyCount, 1);
        this.failures++;
        this.lastError = error;
        this.options.onError?.(error);
        return new Promise<void>((resolve) => setTimeout(resolve, this.options.flushMs));
      })
      .finally(() => {
        this.running = undefined;
        if (this.pending && !this.closed) this.schedule();
      });
  }

  private async writeOnce(): Promise<void> {
    if (this.needsSnapshot) {
      // The whole state from memory (start, reset, restore, after a failure): never beside another snapshot write.
      await this.compacting;
      await this.compact();
      return;
    }
    if (!this.compacting && this.journalBytes >= Math.max(this.minCompactBytes, this.snapshot.bytes))
      await this.rotate();
    if (this.dirtyCount > 0) await this.append();
  }

  /**
   * Starts a compaction that lets appends go on: the journal of generation g is set aside (renamed), a fresh one
   * takes generation g+1 lines from now on, and snapshot(g+1) is written from memory beside them. Until its
   * rename a load reads snapshot(g) + both journals; after it, snapshot(g+1) + the new journal (the set-aside
   * one's lines are older than the snapshot and skipped). A compaction that held the appends back kept writes
   * acknowledged meanwhile in memory for as long as it took, seconds on a busy machine: longer than the flush
   * window a write may wait (test/store/crash.test.ts kills the CLI during one).
   */
  private async rotate(): Promise<void> {
    await this.journal!.close();
    this.journal = undefined;
    try {
      await rename(this.journalFile, this.rotatedFile);
    } finally {
      // After a failed rename this reopens the same journal, and the caller's failure handling takes over.
      this.journal = await open(this.journalFile, 'a+');
    }
    // Durable before any g+1 line is: a load must never see g+1 lines without the g lines set aside.
    await syncFolder(dirname(this.journalFile));
    this.journalBytes = 0;
    const generation = ++this.snapshot.generation;
    this.compacting = this.writeSnapshot(generation)
      .catch((error: unknown) => {
        // The state in memory is complete: the next flush writes a whole snapshot (and removes the set-aside journal).
        this.needsSnapshot = true;
        this.dirtyCount = Math.max(this.dirtyCount, 1);
        this.options.onError?.(error);
        if (!this.closed) this.schedule();
      })
      .finally(() => {
        this.compacting = undefined;
      });
  }

  private async writeSnapshot(generation: number): Promise<void> {
    await this.snapshot.write(this.chunks(generation));
    // Every line set aside is in snapshot(g+1) now.
    await unlink(this.rotatedFile).catch(() => undefined);
  }

  private chunks(generation: number): AsyncGenerator<string> {
    return snapshotChunks(this.source.records(), generation, this.source.kept);
  }

  private async append(): Promise<void> {
    const data = this.source.records();
    const ops: [string, string, unknown][] = [];
    for (const [collection, keys] of this.dirty) {
      const isRecord = (COLLECTIONS as readonly string[]).includes(collection);
      const rows = isRecord ? (data[collection as keyof StoreData] as Record<string, unknown>) : undefined;
      const kept = isRecord ? undefined : this.source.kept.get(collection);
      for (const key of keys) {
        const record = rows ? (Object.hasOwn(rows, key) ? rows[key] : null) : (kept?.record(key) ?? null);
        ops.push([collection, key, record]);
      }
    }
    this.dirty.clear();
    this.dirtyCount = 0;
    // One JSON.stringify for the line and its bytes encoded once (the write takes them, their length is counted).
    const line: JournalLine = { g: this.snapshot.generation, ops };
    const bytes = Buffer.from(`${JSON.stringify(line)}\n`, 'utf8');
    const journal = this.journal!;
    await journal.write(bytes);
    this.journalBytes += bytes.length;
    await journal.datasync();
  }

  private async compact(): Promise<void> {
    // Everything changed so far goes into the snapshot; what changes while it is serialised is marked dirty
    // again and journaled (with the new generation) after it.
    this.dirty.clear();
    this.dirtyCount = 0;
    this.needsSnapshot = false;
    this.snapshot.generation++;
    try {
      await this.snapshot.write(this.chunks(this.snapshot.generation));
    } catch (error) {
      this.snapshot.generation--;
      throw error;
    }
    // From here on the old journals' lines carry an older generation and are ignored on load.
    await this.journal!.truncate(0);
    this.journalBytes = 0;
    await unlink(this.rotatedFile).catch(() => undefined);
  }
}

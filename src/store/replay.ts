/**
 * Replaying journal lines on top of a snapshot, for the loader (persist.ts). Plain JSON.
 */
import { COLLECTIONS, type StoreData } from './records.js';

/** One journal line: the generation it belongs to and the records it sets (`null`: deleted). */
export interface JournalLine {
  g: number;
  /** A record collection's name (records.ts), or a kept collection's (core/kept.ts). */
  ops: [string, string, unknown][];
}

/** Kept in-flight records (core/kept.ts), by collection name and key. */
export type KeptData = Record<string, Record<string, unknown>>;

/** What a data file holds: the records, and the in-flight state kept beside them. */
export interface LoadedData {
  data: StoreData;
  kept: KeptData;
}

/** A line that does not parse and is not the last one: the file was damaged, not torn by a crash. */
export class DamagedJournalError extends Error {
  constructor(readonly line: number) {
    super(`damaged at line ${line}`);
  }
}

export interface Replayed {
  state: LoadedData | null;
  /** Lines applied. */
  replayed: number;
  /** Bytes of whole lines (a torn last line is not counted). */
  validBytes: number;
  /** Highest generation seen on any whole line (-1 when none). */
  maxGeneration: number;
}

/**
 * Applies, in order, every line of generation ≥ `minGeneration` (the snapshot's): older lines are what a crash
 * between writing a newer snapshot and dropping the old journal leaves, and every change in them is in the
 * snapshot already. A last line that does not parse (or lacks its newline) is a write torn by a crash: ignored.
 */
export function replayJournal(state: LoadedData | null, text: string, minGeneration: number): Replayed {
  let replayed = 0;
  let offset = 0;
  let validBytes = 0;
  let lineNo = 0;
  let maxGeneration = -1;
  while (offset < text.length) {
    const end = text.indexOf('\n', offset);
    const line = end < 0 ? text.slice(offset) : text.slice(offset, end);
    const next = end < 0 ? text.length : end + 1;
    lineNo++;
    let parsed: JournalLine | undefined;
    try {
      const value = JSON.parse(line) as JournalLine;
      if (end >= 0 && typeof value?.g === 'number' && Array.isArray(value.ops)) parsed = value;
    } catch {
      /* handled below */
    }
    if (!parsed) {
      if (next >= text.length) break; // torn tail
      throw new DamagedJournalError(lineNo);
    }
    maxGeneration = Math.max(maxGeneration, parsed.g);
    if (parsed.g >= minGeneration) {
      state ??= { data: emptyShape(), kept: {} };
      for (const [collection, key, record] of parsed.ops) {
        const rows = rowsOf(state, collection);
        if (record === null) delete rows[key];
        else rows[key] = record;
      }
      replayed++;
    }
    offset = next;
    validBytes += Buffer.byteLength(line) + 1;
  }
  return { state, replayed, validBytes, maxGeneration };
}

/** The rows a loaded collection holds by key (records or kept records), made empty on first use. */
export function rowsOf(state: LoadedData, collection: string): Record<string, unknown> {
  if ((COLLECTIONS as readonly string[]).includes(collection)) {
    const data = state.data as unknown as Record<string, Record<string, unknown> | undefined>;
    data[collection] ??= {};
    return data[collection];
  }
  state.kept[collection] ??= {};
  return state.kept[collection];
}

/**
 * Splits a parsed snapshot into its records, the in-flight state kept beside them (`kept`, absent in files written
 * before it was kept) and its generation (0 when absent: files written before generations).
 */
export function splitSnapshot(parsed: Record<string, unknown>): LoadedData & { generation: number } {
  const { generation, kept, ...data } = parsed;
  return {
    data: data as unknown as StoreData,
    kept: kept !== null && typeof kept === 'object' && !Array.isArray(kept) ? (kept as KeptData) : {},
    generation: typeof generation === 'number' && Number.isInteger(generation) ? generation : 0,
  };
}

export function emptyShape(): StoreData {
  const out: Record<string, unknown> = { version: 1 };
  for (const name of COLLECTIONS) out[name] = {};
  return out as unknown as StoreData;
}

/**
 * The compaction worker (a worker thread, started by persist.ts for one job and then ended). It folds a
 * rotated journal into the snapshot *from the files*: reads snapshot(g) and the journal the main thread has
 * just set aside, replays it, and writes snapshot(g+1) atomically (temporary file, fsync, rename, fsync of the
 * folder). The main thread meanwhile keeps answering and appending generation g+1 lines to a fresh journal,
 * so the CPU of serialising ~100,000 records and encoding tens of MB of text is not taken from requests.
 * Plain fs + JSON on purpose: lowdb stays the main thread's in-memory holder.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { readIfExists, replaceFile } from './atomic-file.js';
import { emptyShape, replayJournal, splitSnapshot } from './replay.js';

export interface CompactJob {
  snapshot: string;
  tmp: string;
  journal: string;
  generation: number;
}

export type CompactResult = { ok: true; bytes: number } | { ok: false; error: string };

async function compact(job: CompactJob): Promise<number> {
  const snapshotText = await readIfExists(job.snapshot);
  let { data, generation } = snapshotText === undefined
    ? { data: emptyShape(), generation: 0 }
    : splitSnapshot(JSON.parse(snapshotText) as Record<string, unknown>);
  const journalText = await readIfExists(job.journal);
  if (journalText !== undefined) data = replayJournal(data, journalText, generation).state ?? data;
  const text = JSON.stringify({ ...data, generation: job.generation });
  await replaceFile(job.snapshot, job.tmp, text);
  return Buffer.byteLength(text);
}

/**
 * On a machine whose cores are all busy (the sandbox's own load generator, a CI runner), a worker at normal
 * priority still takes its CPU from the threads that answer requests. Compaction is not urgent (appends go on
 * meanwhile), so on Linux the worker lowers its own thread's priority (a thread's id is a pid there; the main
 * thread keeps its own). Elsewhere, or when refused, it runs at normal priority.
 */
function yieldCpu(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, 10);
  } catch {
    // Not Linux, or not allowed: normal priority.
  }
}

parentPort?.once('message', (job: CompactJob) => {
  yieldCpu();
  compact(job).then(
    (bytes) => parentPort!.postMessage({ ok: true, bytes } satisfies CompactResult),
    (error: unknown) => parentPort!.postMessage({ ok: false, error: String(error) } satisfies CompactResult),
  );
});

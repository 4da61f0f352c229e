/**
 * Snapshots (GET and PUT /__sandbox/state, docs/library.md): the whole state as one JSON-ready document, with the
 * uploaded PDFs its records refer to, and putting such a document back, validated first and refused whole.
 */
import type { Clock } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import { isoTime } from '../core/time-format.js';
import type { Services } from '../store/services.js';
import { type DocumentEntries, DocumentStore } from '../store/documents.js';
import type { StoreData } from '../store/records.js';
import { SNAPSHOT_FORMAT, type Snapshot, parseSnapshot } from '../store/snapshot.js';

/** A snapshot with the uploaded PDFs it refers to, base64 under `"<platformId>/<sha256>"` (docs/documents.md). */
export type SnapshotWithDocuments = Snapshot & { documents?: DocumentEntries };

/**
 * In-flight collections a snapshot leaves out: the clocks (it carries them as `clock` and `tenantClocks`), the
 * seeded key source's position (keys go on from the sandbox's own) and the request journal (the traffic, not the
 * state: a snapshot taken again after a few reads is the same snapshot; a restore empties the journal).
 */
const NOT_IN_SNAPSHOTS = ['clocks', 'ids', 'requests'] as const;

export function takeSnapshot(services: Services, documents: DocumentStore | undefined): SnapshotWithDocuments {
  const { clocks, store } = services;
  const clock = clocks.sandbox;
  const now = isoTime(clock.now());
  const tenantClocks = clocks.entries();
  const snapshot: SnapshotWithDocuments = {
    format: SNAPSHOT_FORMAT,
    version: 1,
    savedAt: now,
    clock: clockOf(clock),
    ...(tenantClocks.length
      ? { tenantClocks: Object.fromEntries(tenantClocks.map(([platformId, c]) => [platformId, clockOf(c)])) }
      : {}),
    store: structuredClone(store.data),
    kept: store.keptRecords(NOT_IN_SNAPSHOTS),
  };
  if (documents) {
    // Only the files records still refer to: a replaced upload is not carried along.
    const used = referencedDocuments(snapshot.store);
    snapshot.documents = documents.entries((platformId, sha) => used.has(`${platformId}/${sha}`));
  }
  return snapshot;
}

export async function restoreSnapshot(
  services: Services,
  documents: DocumentStore | undefined,
  input: unknown,
): Promise<Snapshot> {
  const snapshot = parseSnapshot(input);
  const files = documents ? snapshotDocuments(snapshot, input) : undefined;
  const { clocks, store, bus } = services;
  const clock = clocks.sandbox;
  services.timers.clear();
  clock.clearTimers();
  clocks.dropAll();
  store.replace(structuredClone(snapshot.store));
  if (files) await documents!.replace(files);
  if (snapshot.clock) {
    await clock.set(Date.parse(snapshot.clock.now));
    if (snapshot.clock.mode === 'frozen') clock.freeze();
    if (snapshot.clock.mode === 'real') clock.unfreeze();
  }
  for (const [platformId, c] of Object.entries(snapshot.tenantClocks ?? {}))
    if (store.platforms.has(platformId)) clocks.give(platformId, { mode: c.mode, start: Date.parse(c.now) });
  // Modules clear what they hold of the old state on this event; a snapshot that carries what was in flight then
  // (deliveries and their retries, timers, scenarios, faults, outages, emails) puts that back.
  bus.emit({ type: 'sandbox.reset' });
  if (snapshot.kept) store.replaceKept(snapshot.kept, NOT_IN_SNAPSHOTS);
  return snapshot;
}

function clockOf(clock: Clock): { now: string; mode: 'frozen' | 'real' } {
  return { now: isoTime(clock.now()), mode: clock.isFrozen ? 'frozen' : 'real' };
}

/** The files a snapshot carries, checked against their hashes and against every record that refers to one. */
function snapshotDocuments(snapshot: Snapshot, input: unknown): ReturnType<typeof DocumentStore.decode>['files'] {
  const raw = (input as { documents?: unknown }).documents ?? {};
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw ApiError.badRequest('Invalid snapshot: documents must be an object of "<platformId>/<sha256>": "<base64>"', [
      { path: 'documents', message: 'Must be an object' },
    ]);
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

/** `"<platformId>/<sha256>"` of every uploaded file a contract or template refers to. */
function referencedDocuments(data: StoreData): Set<string> {
  const used = new Set<string>();
  for (const r of [...Object.values(data.contracts), ...Object.values(data.templates)])
    if (r.document) used.add(`${r.platformId}/${r.document.sha256}`);
  return used;
}

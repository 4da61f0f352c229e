/**
 * One render per document (docs/documents.md, "One render per document"): a job is plain data and always gives the
 * same bytes, so requests for the same document (same contract state, same kind) at once share one render, and the
 * files made last are kept, within SHARED_FILES, for the repeats of an unchanged document. 200 downloads of one
 * contract at once cost one render instead of 200 (165 of which the queue refused with a 503); figures in
 * docs/benchmarks.md.
 */
import { createHash } from 'node:crypto';
import type { DocxJob, PdfJob, Renderer } from './jobs.js';

export interface SharedBounds {
  /** Files kept for repeats. */
  files: number;
  /** Their bytes in all; a file larger than a quarter of this is shared while it renders but not kept. */
  bytes: number;
}

/** The last 32 files made, 64 MB in all at most. */
export const SHARED_FILES: SharedBounds = { files: 32, bytes: 64 * 1024 * 1024 };

/** `renderer` with its `pdf` and `docx` jobs shared while they run and kept once made. */
export function sharedRenderer<R extends Renderer>(renderer: R, bounds: SharedBounds = SHARED_FILES): R {
  const running = new Map<string, Promise<Uint8Array>>();
  const kept = new Map<string, Uint8Array>();
  let keptBytes = 0;
  const keep = (key: string, file: Uint8Array) => {
    if (file.byteLength > bounds.bytes / 4) return;
    kept.set(key, file);
    keptBytes += file.byteLength;
    // The oldest first: a Map iterates in the order its keys were set (a file used again is set again).
    for (const [oldest, bytes] of kept) {
      if (kept.size <= bounds.files && keptBytes <= bounds.bytes) break;
      kept.delete(oldest);
      keptBytes -= bytes.byteLength;
    }
  };
  const shared = (kind: string, job: PdfJob | DocxJob, render: () => Promise<Uint8Array>): Promise<Uint8Array> => {
    const key = jobKey(kind, job);
    const file = kept.get(key);
    if (file) {
      kept.delete(key);
      kept.set(key, file);
      return Promise.resolve(file);
    }
    let made = running.get(key);
    if (!made) {
      made = render().then(
        (bytes) => {
          running.delete(key);
          keep(key, bytes);
          return bytes;
        },
        (error: unknown) => {
          running.delete(key);
          throw error;
        },
      );
      running.set(key, made);
    }
    return made;
  };
  return {
    ...renderer,
    pdf: (job) => shared('pdf', job, () => renderer.pdf(job)),
    docx: (job) => shared('docx', job, () => renderer.docx(job)),
  };
}

/**
 * A job's identity: the SHA-256 of everything it holds, an uploaded file by its own SHA-256 when the job names it
 * (`sha256` beside `bytes`), so a download does not hash megabytes again.
 */
export function jobKey(kind: string, job: unknown): string {
  const hash = createHash('sha256');
  const text = (s: string) => hash.update(`${s.length}:${s}`);
  const walk = (value: unknown): void => {
    if (value instanceof Uint8Array) {
      text(`bytes ${value.byteLength}`);
      hash.update(value);
    } else if (value instanceof Map) {
      text('map');
      for (const [k, v] of value) {
        walk(k);
        walk(v);
      }
      text('end');
    } else if (Array.isArray(value)) {
      text('list');
      for (const v of value) walk(v);
      text('end');
    } else if (value !== null && typeof value === 'object') {
      text('object');
      const named = 'sha256' in value && 'bytes' in value;
      for (const [k, v] of Object.entries(value)) {
        if (named && k === 'bytes') continue;
        text(k);
        walk(v);
      }
      text('end');
    } else text(`${typeof value} ${String(value)}`);
  };
  text(kind);
  walk(job);
  return hash.digest('hex');
}

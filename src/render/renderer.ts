/**
 * The renderer: the one plain interface the domain calls to read an uploaded PDF and to make PDF and DOCX files
 * (docs/documents.md). The domain decides what a document says (which values fill which tags, which box shows
 * what, the audit trail's rows); the renderer only draws it. Jobs are plain data, so a job always gives the same
 * bytes. The drawing code (pdf-lib, docx, htmlparser2: most of a megabyte) loads on the first job, not at start.
 */

import { existsSync } from 'node:fs';
import type { Renderer } from './jobs.js';
import { type QueueBounds, RENDER_QUEUE, queuedRenderer } from './queue.js';
import { sharedRenderer } from './shared.js';
import { threadRenderer } from './thread.js';

export type * from './jobs.js';

/** A renderer as closable as its thread: `close()` ends the worker thread, if one was started. */
export type ClosableRenderer = Renderer & { close(): Promise<void> };

/**
 * The sandbox's renderer: on a worker thread (thread.ts) when the compiled worker is beside this file (the built
 * package), else in this thread (the TypeScript sources under test, which a worker cannot load), or `draw` when
 * given (a test's); either way its jobs go through one bounded queue (queue.ts), and requests for one document at
 * once share one render, the last files made kept for repeats (shared.ts).
 */
export function createRenderer(bounds: QueueBounds = RENDER_QUEUE, draw?: ClosableRenderer): ClosableRenderer {
  return sharedRenderer(queuedRenderer(draw ?? drawingRenderer(), bounds));
}

function drawingRenderer(): ClosableRenderer {
  for (const path of ['./worker.js', './render/worker.js']) {
    const file = new URL(path, import.meta.url);
    if (import.meta.url.endsWith('.js') && existsSync(file)) return threadRenderer(file);
  }
  return { ...inProcessRenderer(), close: async () => {} };
}

/** A renderer in this thread whose drawing code is imported by its first job (none at start). */
export function inProcessRenderer(): Renderer {
  const pdf = once(() => import('./pdf.js'));
  const docx = once(() => import('./docx.js'));
  const inspect = once(() => import('./pdf-inspect.js'));
  const sanitiser = once(() => import('./sanitise.js'));
  return {
    inspectPdf: async (bytes) => (await inspect()).inspectPdf(bytes),
    pdf: async (job) => (await pdf()).renderPdf(job),
    docx: async (job) => (await docx()).renderDocx(job),
    sanitise: async (html) => (await sanitiser()).sanitiseContractHtml(html),
  };
}

function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    loaded ??= load();
    return loaded;
  };
}

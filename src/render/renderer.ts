/**
 * The renderer: the one plain interface the domain calls to read an uploaded PDF and to make PDF and DOCX files
 * (docs/documents.md). The domain decides what a document says (which values fill which tags, which box shows
 * what, the audit trail's rows); the renderer only draws it. Jobs are plain data, so a job always gives the same
 * bytes. The drawing code (pdf-lib, docx, htmlparser2: most of a megabyte) loads on the first job, not at start.
 */

import type { DocxJob, PdfInfo, PdfJob } from './jobs.js';

export type * from './jobs.js';

export interface Renderer {
  /** The page sizes of an uploaded PDF, or an ApiError (400/413) saying what is wrong with it. */
  inspectPdf(bytes: Uint8Array): Promise<PdfInfo>;
  pdf(job: PdfJob): Promise<Uint8Array>;
  docx(job: DocxJob): Promise<Uint8Array>;
}

/** A renderer whose drawing code is imported by its first job (one import per renderer, none at start). */
export function createRenderer(): Renderer {
  const pdf = once(() => import('./pdf.js'));
  const docx = once(() => import('./docx.js'));
  const inspect = once(() => import('./pdf-inspect.js'));
  return {
    inspectPdf: async (bytes) => (await inspect()).inspectPdf(bytes),
    pdf: async (job) => (await pdf()).renderPdf(job),
    docx: async (job) => (await docx()).renderDocx(job),
  };
}

function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    loaded ??= load();
    return loaded;
  };
}

/**
 * PDF making with pdf-lib, no browser (docs/documents.md): an HTML contract's blocks (html-blocks.ts) laid out on A4
 * pages (pdf-layout.ts) and numbered, or an uploaded PDF with its placed fields drawn (stamps.ts); then the audit
 * trail (audit-page.ts), its pages numbered too. A job is plain data with sandbox times, so the same job always gives
 * the same bytes.
 *
 * Work limits (docs/documents.md): the layout's (pdf-layout.ts); saving yields to the event loop every
 * SAVE.objectsPerTick objects, so a long document never stalls the server.
 */
import { PDFDocument, ParseSpeeds } from 'pdf-lib';
import { sha256Hex } from '../store/documents.js';
import { appendAuditTrail, auditPageCount } from './audit-page.js';
import { clean, fontsOf, GREY } from './fonts.js';
import { htmlToBlocks } from './html-blocks.js';
import type { PdfJob } from './jobs.js';
import { layoutBlocks, MARGIN } from './pdf-layout.js';
import { drawStamps } from './stamps.js';

/** Plain cross-reference tables: writing object streams (pdf-lib's default) took several times longer. */
const SAVE = { useObjectStreams: false, objectsPerTick: 200 } as const;

export async function renderPdf(job: PdfJob): Promise<Uint8Array> {
  let doc: PDFDocument;
  let numbered = 0;
  if (job.content.kind === 'upload') {
    doc = await PDFDocument.load(job.content.bytes, { updateMetadata: false, parseSpeed: ParseSpeeds.Fast });
    await drawStamps(doc, job.content.stamps);
  } else {
    doc = await PDFDocument.create({ updateMetadata: false });
    await layoutBlocks(doc, htmlToBlocks(job.content.html, job.content.fills));
    numbered = doc.getPageCount();
  }
  setMetadata(doc, job.title, new Date(job.at));
  const size = doc.getPage(0).getSize();
  const total = doc.getPageCount() + (job.audit ? auditPageCount(job.audit, size) : 0);
  numberPages(doc, 0, numbered, total);
  if (!job.audit) return doc.save(SAVE);
  // The audit trail names the document it certifies: the hash of this very file without its audit pages.
  const pagesOnly = await doc.save(SAVE);
  const first = doc.getPageCount();
  await appendAuditTrail(doc, { ...job.audit, documentSha256: sha256Hex(pagesOnly) }, size);
  numberPages(doc, first, doc.getPageCount(), total);
  return doc.save(SAVE);
}

function setMetadata(doc: PDFDocument, title: string, at: Date): void {
  doc.setTitle(clean(title) || 'Contract');
  doc.setProducer('esign-sandbox');
  doc.setCreator('esign-sandbox');
  doc.setCreationDate(at);
  doc.setModificationDate(at);
}

/** "Page i of N" in the footer of the pages `from` to `to` (those the sandbox made), N the whole file's pages. */
function numberPages(doc: PDFDocument, from: number, to: number, total: number): void {
  const font = fontsOf(doc).regular;
  for (let i = from; i < to; i++) {
    const page = doc.getPage(i);
    const label = `Page ${i + 1} of ${total}`;
    page.drawText(label, {
      x: page.getWidth() - MARGIN - font.widthOfTextAtSize(label, 8),
      y: MARGIN / 2,
      size: 8,
      font,
      color: GREY,
    });
  }
}

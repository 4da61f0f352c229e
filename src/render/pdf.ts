/**
 * PDF making with pdf-lib, no browser (docs/documents.md): an HTML contract's blocks (html-blocks.ts) laid out on
 * A4 pages with the standard fonts (wrapping, page breaks, lists, tables, page numbers), or an uploaded PDF with
 * its placed fields drawn (stamps.ts), then the audit trail (audit-page.ts). A job is plain data with sandbox
 * times, so the same job always gives the same bytes.
 *
 * Work limits: a document of more than MAX_PAGES pages is refused (422), and the work yields to the event loop
 * every few dozen lines and objects, so a long document never stalls the server (docs/documents.md).
 */
import {
  type PDFFont,
  PDFDocument,
  type PDFImage,
  type PDFName,
  type PDFOperator,
  type PDFPage,
  ParseSpeeds,
  beginText,
  endText,
  moveText,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  setFillingRgbColor,
  setFontAndSize,
  showText,
} from 'pdf-lib';
import { ApiError } from '../core/errors.js';
import { appendAuditTrail, auditPageCount } from './audit-page.js';
import { clean, fontsOf, GREY, INK, Measure } from './fonts.js';
import { type Block, htmlToBlocks, type Run } from './html-blocks.js';
import { type Line, lineHeight, SIGNATURE_HEIGHT, wrapRuns } from './pdf-lines.js';
import type { PdfJob, SignatureImage } from './jobs.js';
import { drawStamps } from './stamps.js';
import { embedImage } from './images.js';
import { sha256Hex } from '../store/documents.js';
import { pause } from '../core/pause.js';
import { getOrAdd } from '../core/maps.js';

/** A4 in points, the page size of rendered HTML contracts (docs/documents.md). */
export const A4 = { width: 595.28, height: 841.89 } as const;
export const MARGIN = 56;
/** The most pages an HTML contract may take (docs/documents.md, work limits). */
export const MAX_PAGES = 500;
/**
 * A table of more columns is refused (422): on A4 each would be under half a point wide, and drawing a row of
 * 100,000 empty cells took the render worker 4 s (docs/documents.md, work limits).
 */
export const MAX_TABLE_COLUMNS = 1000;
const BODY_SIZE = 11;
const LINE = 1.35;
const HEADING_SIZE = { 1: 20, 2: 16, 3: 14, 4: 12, 5: 11, 6: 11 } as const;
/** Lists indent one step a level, up to this many steps: deeper items keep the deepest indent. */
const MAX_INDENT_STEPS = 10;
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

// ---- HTML blocks onto pages --------------------------------------------------------------------------------

/** Lays the blocks out on A4 pages; answers the number of pages. */
async function layoutBlocks(doc: PDFDocument, blocks: Block[]): Promise<number> {
  const fonts = fontsOf(doc);
  const measure = new Measure();
  const images = await embedImages(doc, blocks);
  const canvas: Canvas = { images, fontKeys: new Map() };
  const imageSize = (image: SignatureImage, room: number) => {
    const embedded = images.get(image.bytes)!;
    const scale = Math.min(SIGNATURE_HEIGHT / embedded.height, Math.max(1, room) / embedded.width);
    return { width: embedded.width * scale, height: embedded.height * scale };
  };
  const wrap = (runs: Run[], size: number, width: number) =>
    wrapRuns(runs, fonts, size, Math.max(1, width), measure, imageSize);
  const width = A4.width - 2 * MARGIN;
  let page = doc.addPage([A4.width, A4.height]);
  let y = A4.height - MARGIN;
  let drawn = 0;
  const newPage = () => {
    if (doc.getPageCount() >= MAX_PAGES) throw tooLong();
    page = doc.addPage([A4.width, A4.height]);
    y = A4.height - MARGIN;
  };
  const room = (height: number) => {
    if (y - height < MARGIN && y < A4.height - MARGIN) newPage();
  };
  const breathe = async () => {
    if (++drawn % 50 === 0) await pause();
  };
  const drawLines = async (
    lines: Line[],
    x: number,
    size: number,
    after: number,
    prefix?: { text: string; font: PDFFont },
  ) => {
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      const height = lineHeight(line, size * LINE);
      room(height);
      y -= height;
      if (i === 0 && prefix)
        page.drawText(prefix.text, {
          x: x - prefix.font.widthOfTextAtSize(prefix.text, size) - 4,
          y,
          size,
          font: prefix.font,
          color: INK,
        });
      drawLine(canvas, page, line, x, y);
      await breathe();
    }
    y -= after;
  };

  for (const block of blocks) {
    if (block.kind === 'heading') {
      const size = HEADING_SIZE[block.level];
      y -= size * 0.6;
      room(size * LINE * 2); // a heading never ends a page alone
      await drawLines(wrap(block.runs, size, width), MARGIN, size, size * 0.4);
    } else if (block.kind === 'paragraph') {
      await drawLines(wrap(block.runs, BODY_SIZE, width), MARGIN, BODY_SIZE, BODY_SIZE * 0.6);
    } else if (block.kind === 'item') {
      const indent = 18 * Math.min(block.depth + 1, MAX_INDENT_STEPS);
      const marker = block.ordered ? `${block.number}.` : block.depth % 2 === 0 ? '•' : '–';
      const lines = wrap(block.runs, BODY_SIZE, width - indent);
      await drawLines(lines.length ? lines : [[]], MARGIN + indent, BODY_SIZE, BODY_SIZE * 0.25, {
        text: marker,
        font: fonts.regular,
      });
    } else if (block.kind === 'rule') {
      room(BODY_SIZE);
      y -= BODY_SIZE * 0.5;
      page.drawLine({ start: { x: MARGIN, y }, end: { x: MARGIN + width, y }, thickness: 0.6, color: GREY });
      y -= BODY_SIZE * 0.5;
    } else {
      let columns = 1;
      for (const row of block.rows) if (row.cells.length > columns) columns = row.cells.length;
      if (columns > MAX_TABLE_COLUMNS) {
        throw new ApiError(
          422,
          `The contract has a table row of ${columns} cells, more than the limit of ${MAX_TABLE_COLUMNS} columns a page can draw (docs/documents.md)`,
        );
      }
      const cellWidth = width / columns;
      const pad = Math.min(4, cellWidth / 4);
      const text = BODY_SIZE - 1;
      for (const row of block.rows) {
        const cells = row.cells.map((runs) => wrap(runs, text, cellWidth - 2 * pad));
        let height = text * LINE;
        for (const lines of cells) {
          let h = 0;
          for (const line of lines) h += lineHeight(line, text * LINE);
          if (h > height) height = h;
        }
        height += 2 * pad;
        room(height);
        const top = y;
        for (let i = 0; i < columns; i++) {
          const x = MARGIN + i * cellWidth;
          page.drawRectangle({
            x,
            y: top - height,
            width: cellWidth,
            height,
            borderWidth: 0.5,
            borderColor: GREY,
            ...(row.header ? { color: rgb(0.93, 0.94, 0.96) } : {}),
          });
          let lineY = top - pad;
          for (const line of cells[i] ?? []) {
            lineY -= lineHeight(line, text * LINE);
            drawLine(canvas, page, line, x + pad, lineY + text * 0.3);
          }
        }
        y = top - height;
        await breathe();
      }
      y -= BODY_SIZE * 0.8;
    }
  }
  return doc.getPageCount();
}

function tooLong(): ApiError {
  return new ApiError(
    422,
    `The contract is too long to render: it would take more than ${MAX_PAGES} pages (the sandbox's limit, docs/documents.md)`,
  );
}

/** Every signature image of the blocks embedded once, by its bytes. */
async function embedImages(doc: PDFDocument, blocks: Block[]): Promise<Map<Uint8Array, PDFImage>> {
  const images = new Map<Uint8Array, PDFImage>();
  for (const block of blocks) {
    const lists = block.kind === 'table' ? block.rows.flatMap((r) => r.cells) : 'runs' in block ? [block.runs] : [];
    for (const runs of lists)
      for (const run of runs) {
        if (!run.image || images.has(run.image.bytes)) continue;
        const embedded = await embedImage(doc, run.image);
        if (embedded) images.set(run.image.bytes, embedded);
        else delete run.image; // an image no decoder reads is shown as its description
      }
  }
  return images;
}

/** What drawing lines needs beside the page: the embedded images, each page's resource name of each font. */
interface Canvas {
  images: Map<Uint8Array, PDFImage>;
  fontKeys: Map<PDFPage, Map<PDFFont, PDFName>>;
}

function fontKey(canvas: Canvas, page: PDFPage, font: PDFFont): PDFName {
  const keys = getOrAdd(canvas.fontKeys, page, () => new Map<PDFFont, PDFName>());
  return getOrAdd(keys, font, () => page.node.newFontDictionary(font.name, font.ref));
}

/**
 * Draws a line: neighbouring pieces in the same font become one text operation, written as PDF operators
 * directly. PDFPage.drawText validates its options and saves the graphics state on every call, which was most of
 * a 20-page contract's time; the text drawn is the same.
 */
function drawLine(canvas: Canvas, page: PDFPage, line: Line, x: number, y: number): void {
  const ops: PDFOperator[] = [pushGraphicsState(), setFillingRgbColor(INK.red, INK.green, INK.blue)];
  let at = x;
  for (let i = 0; i < line.length; ) {
    const first = line[i]!;
    if (first.image) {
      const embedded = canvas.images.get(first.image.bytes)!;
      page.drawImage(embedded, { x: at, y: y - 2, width: first.width, height: first.image.height });
      at += first.width;
      i++;
      continue;
    }
    let text = '';
    let width = 0;
    let j = i;
    for (
      ;
      j < line.length &&
      !line[j]!.image &&
      line[j]!.font === first.font &&
      line[j]!.size === first.size &&
      line[j]!.underline === first.underline;
      j++
    ) {
      text += line[j]!.text;
      width += line[j]!.width;
    }
    if (text.trim())
      ops.push(
        beginText(),
        setFontAndSize(fontKey(canvas, page, first.font), first.size),
        moveText(at, y),
        showText(first.font.encodeText(text)),
        endText(),
      );
    if (first.underline)
      page.drawLine({ start: { x: at, y: y - 1.5 }, end: { x: at + width, y: y - 1.5 }, thickness: 0.5, color: INK });
    at += width;
    i = j;
  }
  ops.push(popGraphicsState());
  if (ops.length > 3) page.pushOperators(...ops);
}

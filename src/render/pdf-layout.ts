/**
 * An HTML contract's blocks (html-blocks.ts) laid out on A4 pages with the standard fonts: lines wrapped
 * (pdf-lines.ts) and broken across pages, lists indented, tables drawn as boxes. The same blocks always give the same
 * drawing.
 *
 * Work limits (docs/documents.md): a document of more than MAX_PAGES pages or a table of more than MAX_TABLE_COLUMNS
 * columns is refused (422), and the layout yields to the event loop every 50 lines or table rows, so a long document
 * never stalls the server.
 */
import {
  type PDFDocument,
  type PDFFont,
  type PDFImage,
  type PDFName,
  type PDFOperator,
  type PDFPage,
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
import { getOrAdd } from '../core/maps.js';
import { pause } from '../core/pause.js';
import { type Fonts, fontsOf, GREY, INK, Measure } from './fonts.js';
import type { Block, Run } from './html-blocks.js';
import { embedImage } from './images.js';
import type { SignatureImage } from './jobs.js';
import { type Line, lineHeight, SIGNATURE_HEIGHT, wrapRuns } from './pdf-lines.js';

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
/** A table cell's text size. */
const CELL_SIZE = BODY_SIZE - 1;
const LINE = 1.35;
const HEADING_SIZE = { 1: 20, 2: 16, 3: 14, 4: 12, 5: 11, 6: 11 } as const;
/** Lists indent one step a level, up to this many steps: deeper items keep the deepest indent. */
const MAX_INDENT_STEPS = 10;

type Heading = Extract<Block, { kind: 'heading' }>;
type Item = Extract<Block, { kind: 'item' }>;
type Table = Extract<Block, { kind: 'table' }>;

/** Lays the blocks out on A4 pages; answers the number of pages. */
export async function layoutBlocks(doc: PDFDocument, blocks: Block[]): Promise<number> {
  const fonts = fontsOf(doc);
  const layout = new Layout(doc, fonts, await embedImages(doc, blocks));
  for (const block of blocks) {
    if (block.kind === 'heading') await layout.heading(block);
    else if (block.kind === 'paragraph') await layout.paragraph(block.runs);
    else if (block.kind === 'item') await layout.item(block);
    else if (block.kind === 'rule') layout.rule();
    else await layout.table(block);
  }
  return doc.getPageCount();
}

/** The pages as they fill: the page drawn on, and how far down it the next line goes (`y`, from the bottom). */
class Layout {
  private readonly measure = new Measure();
  private readonly canvas: Canvas;
  private readonly width = A4.width - 2 * MARGIN;
  private page: PDFPage;
  private y = A4.height - MARGIN;
  private drawn = 0;

  constructor(
    private readonly doc: PDFDocument,
    private readonly fonts: Fonts,
    images: Map<Uint8Array, PDFImage>,
  ) {
    this.canvas = { images, fontKeys: new Map() };
    this.page = doc.addPage([A4.width, A4.height]);
  }

  async heading(block: Heading): Promise<void> {
    const size = HEADING_SIZE[block.level];
    this.y -= size * 0.6;
    this.room(size * LINE * 2); // a heading never ends a page alone
    await this.drawLines(this.wrap(block.runs, size, this.width), MARGIN, size, size * 0.4);
  }

  async paragraph(runs: Run[]): Promise<void> {
    await this.drawLines(this.wrap(runs, BODY_SIZE, this.width), MARGIN, BODY_SIZE, BODY_SIZE * 0.6);
  }

  /** A list item: indented by its depth, its marker (number or bullet) before its first line. */
  async item(block: Item): Promise<void> {
    const indent = 18 * Math.min(block.depth + 1, MAX_INDENT_STEPS);
    const marker = block.ordered ? `${block.number}.` : block.depth % 2 === 0 ? '•' : '–';
    const lines = this.wrap(block.runs, BODY_SIZE, this.width - indent);
    await this.drawLines(lines.length ? lines : [[]], MARGIN + indent, BODY_SIZE, BODY_SIZE * 0.25, {
      text: marker,
      font: this.fonts.regular,
    });
  }

  rule(): void {
    this.room(BODY_SIZE);
    this.y -= BODY_SIZE * 0.5;
    const y = this.y;
    this.page.drawLine({ start: { x: MARGIN, y }, end: { x: MARGIN + this.width, y }, thickness: 0.6, color: GREY });
    this.y -= BODY_SIZE * 0.5;
  }

  /** A table across the text's width, its columns of one width (the widest row's count). */
  async table(block: Table): Promise<void> {
    let columns = 1;
    for (const row of block.rows) if (row.cells.length > columns) columns = row.cells.length;
    if (columns > MAX_TABLE_COLUMNS) {
      throw new ApiError(
        422,
        `The contract has a table row of ${columns} cells, more than the limit of ${MAX_TABLE_COLUMNS} columns a page can draw (docs/documents.md)`,
      );
    }
    for (const row of block.rows) {
      this.tableRow(row, columns);
      await this.breathe();
    }
    this.y -= BODY_SIZE * 0.8;
  }

  /** One row of boxes, as tall as its tallest cell, never broken across pages. */
  private tableRow(row: Table['rows'][number], columns: number): void {
    const cellWidth = this.width / columns;
    const pad = Math.min(4, cellWidth / 4);
    const cells = row.cells.map((runs) => this.wrap(runs, CELL_SIZE, cellWidth - 2 * pad));
    let height = CELL_SIZE * LINE;
    for (const lines of cells) {
      let h = 0;
      for (const line of lines) h += lineHeight(line, CELL_SIZE * LINE);
      if (h > height) height = h;
    }
    height += 2 * pad;
    this.room(height);
    const top = this.y;
    for (let i = 0; i < columns; i++) {
      const x = MARGIN + i * cellWidth;
      this.page.drawRectangle({
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
        lineY -= lineHeight(line, CELL_SIZE * LINE);
        drawLine(this.canvas, this.page, line, x + pad, lineY + CELL_SIZE * 0.3);
      }
    }
    this.y = top - height;
  }

  /** Draws lines from `x` down the pages, then leaves `after` points; `prefix` goes left of the first (a marker). */
  private async drawLines(
    lines: Line[],
    x: number,
    size: number,
    after: number,
    prefix?: { text: string; font: PDFFont },
  ): Promise<void> {
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      const height = lineHeight(line, size * LINE);
      this.room(height);
      this.y -= height;
      if (i === 0 && prefix)
        this.page.drawText(prefix.text, {
          x: x - prefix.font.widthOfTextAtSize(prefix.text, size) - 4,
          y: this.y,
          size,
          font: prefix.font,
          color: INK,
        });
      drawLine(this.canvas, this.page, line, x, this.y);
      await this.breathe();
    }
    this.y -= after;
  }

  private wrap(runs: Run[], size: number, width: number): Line[] {
    return wrapRuns(runs, this.fonts, size, Math.max(1, width), this.measure, (image, room) =>
      this.imageSize(image, room),
    );
  }

  /** A signature's size in running text: SIGNATURE_HEIGHT tall at most, and within `room` points wide. */
  private imageSize(image: SignatureImage, room: number): { width: number; height: number } {
    const embedded = this.canvas.images.get(image.bytes)!;
    const scale = Math.min(SIGNATURE_HEIGHT / embedded.height, Math.max(1, room) / embedded.width);
    return { width: embedded.width * scale, height: embedded.height * scale };
  }

  /** A new page when `height` points do not fit under `y` (unless the page is still empty). */
  private room(height: number): void {
    if (this.y - height < MARGIN && this.y < A4.height - MARGIN) this.newPage();
  }

  private newPage(): void {
    if (this.doc.getPageCount() >= MAX_PAGES) throw tooLong();
    this.page = this.doc.addPage([A4.width, A4.height]);
    this.y = A4.height - MARGIN;
  }

  private async breathe(): Promise<void> {
    if (++this.drawn % 50 === 0) await pause();
  }
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

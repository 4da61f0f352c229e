/**
 * PDF making with pdf-lib, no browser: an HTML contract's blocks (html-document.ts) laid out on A4 pages with the
 * 14 standard fonts (wrapping, page breaks, lists, tables, page numbers); placed placeholders drawn into their
 * boxes on an uploaded PDF; the audit trail pages. Every function works on a PDFDocument and sandbox times given
 * to it, so the same contract state always gives the same bytes.
 */
import {
  type PDFFont,
  PDFDocument,
  type PDFName,
  type PDFOperator,
  type PDFPage,
  StandardFonts,
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
import type { Block, Run } from './html-document.js';

/** A4 in points, the page size of rendered HTML contracts (decisions §12). */
export const A4 = { width: 595.28, height: 841.89 } as const;
const MARGIN = 56;
const BODY_SIZE = 11;
const LINE = 1.35;
const HEADING_SIZE = { 1: 20, 2: 16, 3: 14, 4: 12, 5: 11, 6: 11 } as const;
const GREY = rgb(0.45, 0.45, 0.45);
const INK = rgb(0.1, 0.1, 0.12);

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  italic: PDFFont;
  boldItalic: PDFFont;
  script: PDFFont;
  mono: PDFFont;
}

/** A new, empty document with fixed metadata: its bytes depend on its content only, not on when it was made. */
export async function newPdf(title: string, at: Date): Promise<PDFDocument> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  setMetadata(doc, title, at);
  return doc;
}

export function setMetadata(doc: PDFDocument, title: string, at: Date): void {
  doc.setTitle(clean(title) || 'Contract');
  doc.setProducer('esign-sandbox');
  doc.setCreator('esign-sandbox');
  doc.setCreationDate(at);
  doc.setModificationDate(at);
}

/** The standard fonts, each embedded on first use only (embedding one decompresses its metrics). */
async function fontsOf(doc: PDFDocument): Promise<Fonts> {
  const cache = new Map<StandardFonts, PDFFont>();
  const font = (name: StandardFonts) => () => {
    let f = cache.get(name);
    if (!f) cache.set(name, (f = doc.embedStandardFont(name)));
    return f;
  };
  const lazy = {
    regular: font(StandardFonts.Helvetica),
    bold: font(StandardFonts.HelveticaBold),
    italic: font(StandardFonts.HelveticaOblique),
    boldItalic: font(StandardFonts.HelveticaBoldOblique),
    script: font(StandardFonts.TimesRomanItalic),
    mono: font(StandardFonts.Courier),
  };
  return {
    get regular() {
      return lazy.regular();
    },
    get bold() {
      return lazy.bold();
    },
    get italic() {
      return lazy.italic();
    },
    get boldItalic() {
      return lazy.boldItalic();
    },
    get script() {
      return lazy.script();
    },
    get mono() {
      return lazy.mono();
    },
  };
}

// ---- text that the standard fonts can show ---------------------------------------------------------------

/**
 * The standard fonts encode WinAnsi only: characters outside it (CJK, emoji, most of Unicode) are shown as "?"
 * rather than failing the download. Accented Latin letters are kept.
 */
const WIN_ANSI_EXTRA = '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ';
function clean(text: string): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    const code = ch.codePointAt(0)!;
    if (ch === '\t') out += ' ';
    else if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.includes(ch)) out += ch;
    else if (code < 0x20 || code === 0x7f) continue;
    else out += '?';
  }
  return out;
}

// ---- HTML blocks onto pages --------------------------------------------------------------------------------

/**
 * Text widths from a per-document cache of glyph widths: pdf-lib measures a string glyph by glyph (kerning
 * included, though drawText does not kern), which made measuring every word most of a 20-page layout's time.
 */
class Measure {
  private readonly glyphs = new Map<PDFFont, Map<string, number>>();

  width(font: PDFFont, text: string, size: number): number {
    let own = this.glyphs.get(font);
    if (!own) this.glyphs.set(font, (own = new Map()));
    let total = 0;
    for (const ch of text) {
      let w = own.get(ch);
      if (w === undefined) own.set(ch, (w = font.widthOfTextAtSize(ch, 1)));
      total += w;
    }
    return total * size;
  }
}

interface Piece {
  text: string;
  font: PDFFont;
  size: number;
  width: number;
  underline: boolean;
  space: boolean;
}

type Line = Piece[];

/** Lays the blocks out on A4 pages; answers the number of pages. */
export async function layoutBlocks(doc: PDFDocument, blocks: Block[]): Promise<number> {
  const fonts = await fontsOf(doc);
  const measure = new Measure();
  const wrap = (runs: Run[], fonts: Fonts, size: number, width: number) => wrapRuns(runs, fonts, size, width, measure);
  const width = A4.width - 2 * MARGIN;
  let page = doc.addPage([A4.width, A4.height]);
  let y = A4.height - MARGIN;
  const newPage = () => {
    page = doc.addPage([A4.width, A4.height]);
    y = A4.height - MARGIN;
  };
  const room = (height: number) => {
    if (y - height < MARGIN && y < A4.height - MARGIN) newPage();
  };
  const drawLines = (
    lines: Line[],
    x: number,
    size: number,
    after: number,
    prefix?: { text: string; font: PDFFont },
  ) => {
    lines.forEach((line, i) => {
      const height = size * LINE;
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
      drawLine(page, line, x, y);
    });
    y -= after;
  };

  for (const block of blocks) {
    if (block.kind === 'heading') {
      const size = HEADING_SIZE[block.level];
      y -= size * 0.6;
      room(size * LINE * 2); // a heading never ends a page alone
      drawLines(wrap(block.runs, fonts, size, width), MARGIN, size, size * 0.4);
    } else if (block.kind === 'paragraph') {
      drawLines(wrap(block.runs, fonts, BODY_SIZE, width), MARGIN, BODY_SIZE, BODY_SIZE * 0.6);
    } else if (block.kind === 'item') {
      const indent = 18 * (block.depth + 1);
      const marker = block.ordered ? `${block.number}.` : block.depth % 2 === 0 ? '•' : '–';
      const lines = wrap(block.runs, fonts, BODY_SIZE, width - indent);
      drawLines(lines.length ? lines : [[]], MARGIN + indent, BODY_SIZE, BODY_SIZE * 0.25, {
        text: marker,
        font: fonts.regular,
      });
    } else if (block.kind === 'rule') {
      room(BODY_SIZE);
      y -= BODY_SIZE * 0.5;
      page.drawLine({ start: { x: MARGIN, y }, end: { x: MARGIN + width, y }, thickness: 0.6, color: GREY });
      y -= BODY_SIZE * 0.5;
    } else {
      const columns = Math.max(...block.rows.map((r) => r.cells.length));
      const cellWidth = width / columns;
      const pad = 4;
      for (const row of block.rows) {
        const cells = row.cells.map((runs) => wrap(runs, fonts, BODY_SIZE - 1, cellWidth - 2 * pad));
        const height = Math.max(1, ...cells.map((c) => c.length)) * (BODY_SIZE - 1) * LINE + 2 * pad;
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
            lineY -= (BODY_SIZE - 1) * LINE;
            drawLine(page, line, x + pad, lineY + (BODY_SIZE - 1) * 0.3);
          }
        }
        y = top - height;
      }
      y -= BODY_SIZE * 0.8;
    }
  }
  const pages = doc.getPages();
  pages.forEach((p, i) => {
    const label = `Page ${i + 1} of ${pages.length}`;
    p.drawText(label, {
      x: A4.width - MARGIN - fonts.regular.widthOfTextAtSize(label, 8),
      y: MARGIN / 2,
      size: 8,
      font: fonts.regular,
      color: GREY,
    });
  });
  return pages.length;
}

/** Each page's resource name of each font, made once per page. */
const fontKeys = new WeakMap<PDFPage, Map<PDFFont, PDFName>>();

function fontKey(page: PDFPage, font: PDFFont): PDFName {
  let keys = fontKeys.get(page);
  if (!keys) fontKeys.set(page, (keys = new Map()));
  let key = keys.get(font);
  if (!key) keys.set(font, (key = page.node.newFontDictionary(font.name, font.ref)));
  return key;
}

/**
 * Draws a line: neighbouring pieces in the same font become one text operation, written as PDF operators
 * directly. PDFPage.drawText validates its options and saves the graphics state on every call, which was most of
 * a 20-page contract's time; the text drawn is the same.
 */
function drawLine(page: PDFPage, line: Line, x: number, y: number): void {
  const ops: PDFOperator[] = [pushGraphicsState(), setFillingRgbColor(INK.red, INK.green, INK.blue)];
  let at = x;
  for (let i = 0; i < line.length; ) {
    const first = line[i]!;
    let text = '';
    let width = 0;
    let j = i;
    for (
      ;
      j < line.length &&
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
        setFontAndSize(fontKey(page, first.font), first.size),
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

function fontFor(fonts: Fonts, run: Run): PDFFont {
  if (run.bold && run.italic) return fonts.boldItalic;
  if (run.bold) return fonts.bold;
  if (run.italic) return fonts.italic;
  return fonts.regular;
}

/** Breaks styled runs into lines no wider than `width`: at spaces, at `<br>`, and inside words too long for a line. */
function wrapRuns(runs: Run[], fonts: Fonts, size: number, width: number, measure: Measure): Line[] {
  const lines: Line[] = [];
  let line: Line = [];
  let used = 0;
  const end = () => {
    while (line.length && line[line.length - 1]!.space) used -= line.pop()!.width;
    lines.push(line);
    line = [];
    used = 0;
  };
  for (const run of runs) {
    if (run.text === '\n') {
      end();
      continue;
    }
    const font = fontFor(fonts, run);
    for (const token of clean(run.text).split(/( +)/)) {
      if (!token) continue;
      const space = token.trim() === '';
      const text = space ? ' ' : token;
      if (space && line.length === 0) continue;
      let w = measure.width(font, text, size);
      if (!space && used + w > width && line.length) end();
      if (!space && w > width) {
        // A word wider than the line: split it where it overflows.
        let rest = text;
        while (measure.width(font, rest, size) > width) {
          let cut = rest.length - 1;
          while (cut > 1 && measure.width(font, rest.slice(0, cut), size) > width - used) cut--;
          const part = rest.slice(0, cut);
          line.push({
            text: part,
            font,
            size,
            width: measure.width(font, part, size),
            underline: !!run.underline,
            space: false,
          });
          end();
          rest = rest.slice(cut);
        }
        w = measure.width(font, rest, size);
        line.push({ text: rest, font, size, width: w, underline: !!run.underline, space: false });
        used += w;
        continue;
      }
      line.push({ text, font, size, width: w, underline: !!run.underline, space });
      used += w;
    }
  }
  if (line.length) end();
  return lines;
}

// ---- placed placeholders on an uploaded PDF ----------------------------------------------------------------

/** What goes in one box. Geometry in API units: 1/1000 of the page width, from the top-left corner (decisions §12). */
export interface Stamp {
  pageIndex: number;
  positionX: number;
  positionY: number;
  width: number;
  height: number;
  /** The value; `image` draws a PNG or JPEG signature; `name` a signature shown as the signer's name in script. */
  content:
    | { kind: 'text'; text: string }
    | { kind: 'image'; format: 'png' | 'jpeg'; bytes: Uint8Array }
    | { kind: 'script'; text: string }
    | { kind: 'empty'; label: string };
}

export async function drawStamps(doc: PDFDocument, stamps: Stamp[]): Promise<void> {
  if (stamps.length === 0) return;
  const fonts = await fontsOf(doc);
  const pages = doc.getPages();
  for (const stamp of stamps) {
    const page = pages[stamp.pageIndex];
    if (!page) continue;
    const { width: pageWidth, height: pageHeight } = page.getSize();
    const unit = pageWidth / 1000;
    const w = stamp.width * unit;
    const h = stamp.height * unit;
    const x = stamp.positionX * unit;
    const y = pageHeight - stamp.positionY * unit - h;
    const c = stamp.content;
    if (c.kind === 'empty') {
      page.drawRectangle({
        x,
        y,
        width: w,
        height: h,
        borderWidth: 0.6,
        borderColor: rgb(0.6, 0.65, 0.75),
        borderDashArray: [3, 2],
      });
      fitText(page, clean(c.label), fonts.italic, x, y, w, h, GREY, 9);
    } else if (c.kind === 'image') {
      const image = c.format === 'png' ? await doc.embedPng(c.bytes) : await doc.embedJpg(c.bytes);
      const scale = Math.min(w / image.width, h / image.height);
      page.drawImage(image, {
        x,
        y: y + (h - image.height * scale) / 2,
        width: image.width * scale,
        height: image.height * scale,
      });
    } else if (c.kind === 'script') {
      fitText(page, clean(c.text), fonts.script, x, y, w, h, rgb(0.05, 0.15, 0.45), 28);
    } else {
      fitText(page, clean(c.text), fonts.regular, x, y, w, h, INK, 14);
    }
  }
}

/** One line of text inside a box: as large as fits (up to `max` points), shrunk to 5 points, then shortened. */
function fitText(
  page: PDFPage,
  text: string,
  font: PDFFont,
  x: number,
  y: number,
  w: number,
  h: number,
  color: ReturnType<typeof rgb>,
  max: number,
): void {
  if (!text) return;
  let size = Math.max(5, Math.min(max, h * 0.7));
  while (size > 5 && font.widthOfTextAtSize(text, size) > w - 2) size -= 0.5;
  let shown = text;
  while (shown.length > 1 && font.widthOfTextAtSize(shown, size) > w - 2) shown = `${shown.slice(0, -2)}…`;
  const baseline = y + (h - font.heightAtSize(size, { descender: false })) / 2;
  page.drawText(shown, { x: x + 1, y: baseline, size, font, color });
}

// ---- the audit trail ---------------------------------------------------------------------------------------

export interface AuditTrail {
  contractKey: string;
  name: string;
  status: string;
  /** SHA-256 (hex) of the signed document as downloaded, without its audit trail pages. */
  documentSha256: string;
  /** SHA-256 of the uploaded file, for PDF contracts. */
  uploadSha256?: string | undefined;
  generatedAt: string;
  events: { time: string; event: string; name: string; email: string; ip: string }[];
}

/** Appends the audit trail on its own A4 pages (more than one when the history is long). */
export async function appendAuditTrail(doc: PDFDocument, audit: AuditTrail): Promise<void> {
  const fonts = await fontsOf(doc);
  let page = doc.addPage([A4.width, A4.height]);
  let y = A4.height - MARGIN;
  const text = (value: string, x: number, size: number, font: PDFFont, color = INK) =>
    page.drawText(clean(value), { x, y, size, font, color });
  text('Audit trail', MARGIN, 18, fonts.bold);
  y -= 28;
  const facts: [string, string][] = [
    ['Contract', audit.name],
    ['Contract key', audit.contractKey],
    ['Status', audit.status],
    ['Document SHA-256', audit.documentSha256],
    ...(audit.uploadSha256 ? [['Uploaded file SHA-256', audit.uploadSha256] as [string, string]] : []),
    ['Generated', audit.generatedAt],
  ];
  for (const [label, value] of facts) {
    text(label, MARGIN, 9, fonts.bold, GREY);
    page.drawText(clean(value), {
      x: MARGIN + 120,
      y,
      size: label.includes('SHA') ? 7.5 : 9,
      font: label.includes('SHA') ? fonts.mono : fonts.regular,
      color: INK,
    });
    y -= 15;
  }
  y -= 4;
  page.drawText('The document SHA-256 is of this file without its audit trail pages, as the sandbox produced it.', {
    x: MARGIN,
    y,
    size: 7.5,
    font: fonts.italic,
    color: GREY,
  });
  y -= 22;
  const columns = [MARGIN, MARGIN + 112, MARGIN + 190, MARGIN + 310, MARGIN + 430];
  const header = () => {
    ['Time (UTC)', 'Event', 'Name', 'Email', 'IP'].forEach((label, i) =>
      page.drawText(label, { x: columns[i]!, y, size: 8.5, font: fonts.bold, color: INK }),
    );
    y -= 6;
    page.drawLine({ start: { x: MARGIN, y }, end: { x: A4.width - MARGIN, y }, thickness: 0.5, color: GREY });
    y -= 12;
  };
  header();
  for (const e of audit.events) {
    if (y < MARGIN + 12) {
      page = doc.addPage([A4.width, A4.height]);
      y = A4.height - MARGIN;
      text('Audit trail (continued)', MARGIN, 12, fonts.bold);
      y -= 22;
      header();
    }
    [e.time, e.event, e.name, e.email, e.ip].forEach((value, i) => {
      const limit = (columns[i + 1] ?? A4.width - MARGIN) - columns[i]! - 6;
      let shown = clean(value);
      while (shown.length > 1 && fonts.regular.widthOfTextAtSize(shown, 8) > limit) shown = `${shown.slice(0, -2)}…`;
      page.drawText(shown, { x: columns[i]!, y, size: 8, font: fonts.regular, color: INK });
    });
    y -= 13;
  }
}

/**
 * Placed fields drawn into their boxes on an uploaded PDF (docs/documents.md "What the downloads contain"): text as
 * large as fits, a drawn signature scaled to its box, an empty field as a dashed box saying what it is for.
 */
import { type PDFDocument, type PDFFont, type PDFPage, rgb } from 'pdf-lib';
import { clean, fontsOf, GREY, INK, Measure } from './fonts.js';
import { pause } from '../core/pause.js';
import { embedImage } from './images.js';
import type { Stamp } from './jobs.js';

export async function drawStamps(doc: PDFDocument, stamps: Stamp[]): Promise<void> {
  if (stamps.length === 0) return;
  const fonts = fontsOf(doc);
  const measure = new Measure();
  const pages = doc.getPages();
  let drawn = 0;
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
    const box = { page, measure, x, y, w, h };
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
      fitText(box, clean(c.label), fonts.italic, GREY, 9);
    } else if (c.kind === 'image') {
      const image = await embedImage(doc, c);
      if (!image) {
        fitText(box, 'Signature (image unreadable)', fonts.italic, GREY, 9);
        continue;
      }
      const scale = Math.min(w / image.width, h / image.height);
      page.drawImage(image, {
        x,
        y: y + (h - image.height * scale) / 2,
        width: image.width * scale,
        height: image.height * scale,
      });
    } else if (c.kind === 'script') {
      fitText(box, clean(c.text), fonts.script, rgb(0.05, 0.15, 0.45), 28);
    } else {
      fitText(box, clean(c.text), fonts.regular, INK, 14);
    }
    if (++drawn % 50 === 0) await pause();
  }
}

interface Box {
  page: PDFPage;
  measure: Measure;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** One line of text inside a box: as large as fits (up to `max` points), shrunk to 5 points, then shortened. */
function fitText(box: Box, text: string, font: PDFFont, color: ReturnType<typeof rgb>, max: number): void {
  if (!text) return;
  const { page, measure, x, y, w, h } = box;
  const room = w - 2;
  const atOne = measure.width(font, text, 1);
  let size = Math.max(5, Math.min(max, h * 0.7));
  // Shrinks in half-point steps, computed at once: width grows linearly with the size.
  if (atOne * size > room) size = Math.max(5, Math.floor((room / atOne) * 2) / 2);
  const shown = measure.shorten(font, text, size, room);
  const baseline = y + (h - font.heightAtSize(size, { descender: false })) / 2;
  page.drawText(shown, { x: x + 1, y: baseline, size, font, color });
}

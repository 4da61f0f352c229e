/**
 * Breaking styled runs into lines no wider than a width, in one pass over the text (docs/documents.md, work
 * limits): at spaces, at `<br>`, and inside a word too long for a line, a character at a time. Every line takes at
 * least one character, so a character wider than the line (a narrow table column, a deep list) never stops it.
 */
import type { PDFFont } from 'pdf-lib';
import { clean, type Fonts, type Measure } from './fonts.js';
import type { Run } from './html-blocks.js';
import type { SignatureImage } from './jobs.js';

export interface Piece {
  text: string;
  font: PDFFont;
  size: number;
  width: number;
  underline: boolean;
  space: boolean;
  /** A drawn signature: drawn in `width` × `height` points, sitting on the baseline. */
  image?: SignatureImage & { height: number };
}

export type Line = Piece[];

/** How tall a drawn signature stands in running text, points (its width follows from its aspect). */
export const SIGNATURE_HEIGHT = 36;

export function fontFor(fonts: Fonts, run: Run): PDFFont {
  if (run.bold && run.italic) return fonts.boldItalic;
  if (run.bold) return fonts.bold;
  if (run.italic) return fonts.italic;
  return fonts.regular;
}

/**
 * The lines of some runs. `imageSize` answers a signature image's size in points (at SIGNATURE_HEIGHT, within
 * `width`).
 */
export function wrapRuns(
  runs: Run[],
  fonts: Fonts,
  size: number,
  width: number,
  measure: Measure,
  imageSize: (image: SignatureImage, width: number) => { width: number; height: number },
): Line[] {
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
    const underline = !!run.underline;
    if (run.image) {
      const box = imageSize(run.image, width);
      if (used + box.width > width && line.length) end();
      line.push({
        text: '',
        font,
        size,
        width: box.width,
        underline: false,
        space: false,
        image: { ...run.image, ...box },
      });
      used += box.width;
      continue;
    }
    for (const token of clean(run.text).split(/( +)/)) {
      if (!token) continue;
      const space = token[0] === ' ';
      if (space) {
        if (line.length === 0) continue;
        const w = measure.width(font, ' ', size);
        line.push({ text: ' ', font, size, width: w, underline, space });
        used += w;
        continue;
      }
      const w = measure.width(font, token, size);
      if (used + w > width && line.length) end();
      if (w <= width - used) {
        line.push({ text: token, font, size, width: w, underline, space: false });
        used += w;
        continue;
      }
      // A word wider than the line: cut it where it overflows, one pass, at least one character a line.
      let start = 0;
      let partWidth = 0;
      let i = 0;
      for (const ch of token) {
        const cw = measure.glyph(font, ch) * size;
        if (i > start && used + partWidth + cw > width) {
          line.push({ text: token.slice(start, i), font, size, width: partWidth, underline, space: false });
          end();
          start = i;
          partWidth = 0;
        }
        partWidth += cw;
        i += ch.length;
      }
      line.push({ text: token.slice(start), font, size, width: partWidth, underline, space: false });
      used += partWidth;
    }
  }
  if (line.length) end();
  return lines;
}

/** A line's height: the text's, or a drawn signature's when it is taller. */
export function lineHeight(line: Line, textHeight: number): number {
  let height = textHeight;
  for (const piece of line) if (piece.image && piece.image.height > height) height = piece.image.height;
  return height;
}

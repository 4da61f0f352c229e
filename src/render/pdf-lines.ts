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
  const breaking = new LineBreaking(size, width, measure);
  for (const run of runs) {
    if (run.text === '\n') breaking.end();
    else if (run.image) breaking.image(fontFor(fonts, run), run.image, imageSize(run.image, width));
    else breaking.text(fontFor(fonts, run), !!run.underline, run.text);
  }
  return breaking.done();
}

/** The lines made so far, and the line being filled (`used`: its width so far). */
class LineBreaking {
  private readonly lines: Line[] = [];
  private line: Line = [];
  private used = 0;

  constructor(
    private readonly size: number,
    private readonly width: number,
    private readonly measure: Measure,
  ) {}

  /** Ends the line being filled, without its trailing spaces. */
  end(): void {
    while (this.line.length && this.line[this.line.length - 1]!.space) this.used -= this.line.pop()!.width;
    this.lines.push(this.line);
    this.line = [];
    this.used = 0;
  }

  done(): Line[] {
    if (this.line.length) this.end();
    return this.lines;
  }

  /** A drawn signature: on a line of its own when it does not fit beside what the line holds. */
  image(font: PDFFont, image: SignatureImage, box: { width: number; height: number }): void {
    if (this.used + box.width > this.width && this.line.length) this.end();
    this.line.push({
      text: '',
      font,
      size: this.size,
      width: box.width,
      underline: false,
      space: false,
      image: { ...image, ...box },
    });
    this.used += box.width;
  }

  /** Text: words and the spaces between them; a line never starts with a space. */
  text(font: PDFFont, underline: boolean, text: string): void {
    const size = this.size;
    for (const token of clean(text).split(/( +)/)) {
      if (!token) continue;
      const space = token[0] === ' ';
      if (space) {
        if (this.line.length === 0) continue;
        const w = this.measure.width(font, ' ', size);
        this.line.push({ text: ' ', font, size, width: w, underline, space });
        this.used += w;
        continue;
      }
      const w = this.measure.width(font, token, size);
      if (this.used + w > this.width && this.line.length) this.end();
      if (w <= this.width - this.used) {
        this.line.push({ text: token, font, size, width: w, underline, space: false });
        this.used += w;
      } else this.cut(font, underline, token);
    }
  }

  /** A word wider than the line: cut it where it overflows, one pass, at least one character a line. */
  private cut(font: PDFFont, underline: boolean, token: string): void {
    const size = this.size;
    let start = 0;
    let partWidth = 0;
    let i = 0;
    for (const ch of token) {
      const cw = this.measure.glyph(font, ch) * size;
      if (i > start && this.used + partWidth + cw > this.width) {
        this.line.push({ text: token.slice(start, i), font, size, width: partWidth, underline, space: false });
        this.end();
        start = i;
        partWidth = 0;
      }
      partWidth += cw;
      i += ch.length;
    }
    this.line.push({ text: token.slice(start), font, size, width: partWidth, underline, space: false });
    this.used += partWidth;
  }
}

/** A line's height: the text's, or a drawn signature's when it is taller. */
export function lineHeight(line: Line, textHeight: number): number {
  let height = textHeight;
  for (const piece of line) if (piece.image && piece.image.height > height) height = piece.image.height;
  return height;
}

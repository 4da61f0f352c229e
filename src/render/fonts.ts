/**
 * The 14 standard PDF fonts the renderer draws with (no font file is shipped), and the text they can show: they
 * encode WinAnsi only, so characters outside it (CJK, emoji, most of Unicode) are shown as "?" rather than
 * failing the download (docs/documents.md). Accented Latin letters are kept.
 */
import { type PDFDocument, type PDFFont, StandardFonts, rgb } from 'pdf-lib';
import { getOrAdd } from '../core/maps.js';

/** The two inks of everything the sandbox draws: text, and labels, rules and borders. */
export const INK = rgb(0.1, 0.1, 0.12);
export const GREY = rgb(0.45, 0.45, 0.45);

export interface Fonts {
  readonly regular: PDFFont;
  readonly bold: PDFFont;
  readonly italic: PDFFont;
  readonly boldItalic: PDFFont;
  readonly script: PDFFont;
  readonly mono: PDFFont;
}

const FACES: Record<keyof Fonts, StandardFonts> = {
  regular: StandardFonts.Helvetica,
  bold: StandardFonts.HelveticaBold,
  italic: StandardFonts.HelveticaOblique,
  boldItalic: StandardFonts.HelveticaBoldOblique,
  script: StandardFonts.TimesRomanItalic,
  mono: StandardFonts.Courier,
};

/** The standard fonts of one document, each embedded on first use only (embedding one decompresses its metrics). */
export function fontsOf(doc: PDFDocument): Fonts {
  const cache = new Map<StandardFonts, PDFFont>();
  const fonts = {} as Record<keyof Fonts, PDFFont>;
  for (const [key, name] of Object.entries(FACES) as [keyof Fonts, StandardFonts][]) {
    Object.defineProperty(fonts, key, {
      enumerable: true,
      get: () => getOrAdd(cache, name, () => doc.embedStandardFont(name)),
    });
  }
  return fonts;
}

const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** Text the standard fonts can show: tabs as spaces, control characters dropped, the rest outside WinAnsi as "?". */
export function clean(text: string): string {
  const out: string[] = [];
  for (const ch of text.normalize('NFC')) {
    const code = ch.codePointAt(0)!;
    if (ch === '\t') out.push(' ');
    else if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(ch)) out.push(ch);
    else if (code < 0x20 || code === 0x7f) continue;
    else out.push('?');
  }
  return out.join('');
}

/**
 * Text widths from a per-document cache of glyph widths: pdf-lib measures a string glyph by glyph (kerning
 * included, though drawText does not kern), which made measuring every word most of a 20-page layout's time.
 */
export class Measure {
  private readonly glyphs = new Map<PDFFont, Map<string, number>>();

  /** The width of one character at size 1. */
  glyph(font: PDFFont, ch: string): number {
    const own = getOrAdd(this.glyphs, font, () => new Map<string, number>());
    return getOrAdd(own, ch, () => font.widthOfTextAtSize(ch, 1));
  }

  width(font: PDFFont, text: string, size: number): number {
    let total = 0;
    for (const ch of text) total += this.glyph(font, ch);
    return total * size;
  }

  /**
   * The longest start of `text` no wider than `room`, with "…" when it had to be cut: one pass over the text
   * (docs/documents.md, work limits), where cutting a character at a time and measuring again was quadratic.
   */
  shorten(font: PDFFont, text: string, size: number, room: number): string {
    if (this.width(font, text, size) <= room) return text;
    const budget = room - this.width(font, '…', size);
    let used = 0;
    let end = 0;
    for (const ch of text) {
      const w = this.glyph(font, ch) * size;
      if (used + w > budget) break;
      used += w;
      end += ch.length;
    }
    return `${text.slice(0, end)}…`;
  }
}

/**
 * The audit trail pages appended to a fully signed contract (docs/documents.md "The audit trail"), on the
 * document's own page size: its facts, then one row per step of the history, continued on as many pages as the
 * rows need. Values too wide for their column are shortened with "…".
 */
import type { PDFDocument, PDFFont, PDFPage } from 'pdf-lib';
import { clean, type Fonts, fontsOf, GREY, INK, Measure } from './fonts.js';
import { pause } from '../core/pause.js';
import type { AuditTrail } from './jobs.js';

const MARGIN = 56;
const ROW = 13;
/** Where the rows start on the first page (below the facts) and on the next ones (below a shorter title). */
const FIRST_TOP = 28 + 15 * 6 + 4 + 22 + 18;
const NEXT_TOP = 22 + 18;

type Size = { width: number; height: number };

/** How many rows fit on the first page and on each next one of this size. */
function rowsPerPage(size: Size): [number, number] {
  const rows = (top: number) => Math.max(1, Math.floor((size.height - 2 * MARGIN - 12 - top) / ROW) + 1);
  return [rows(FIRST_TOP), rows(NEXT_TOP)];
}

/** The pages the audit trail will take on pages of this size. */
export function auditPageCount(audit: Pick<AuditTrail, 'events'>, size: Size): number {
  const [first, next] = rowsPerPage(size);
  return audit.events.length <= first ? 1 : 1 + Math.ceil((audit.events.length - first) / next);
}

export async function appendAuditTrail(
  doc: PDFDocument,
  audit: AuditTrail & { documentSha256: string },
  size: Size,
): Promise<void> {
  const pages = new AuditPages(doc, size);
  pages.facts(audit);
  pages.header();
  const [first, next] = rowsPerPage(size);
  let left = first;
  for (const e of audit.events) {
    if (left === 0) {
      await pause();
      pages.nextPage();
      left = next;
    }
    pages.row([e.time, e.event, e.name, e.email, e.ip]);
    left--;
  }
}

/** The audit trail's pages as they fill: the page drawn on, and how far down it the next line goes. */
class AuditPages {
  private readonly fonts: Fonts;
  private readonly measure = new Measure();
  private readonly right: number;
  private readonly columns: number[];
  private page: PDFPage;
  private y: number;

  constructor(
    private readonly doc: PDFDocument,
    private readonly size: Size,
  ) {
    this.fonts = fontsOf(doc);
    this.right = size.width - MARGIN;
    this.page = doc.addPage([size.width, size.height]);
    this.y = size.height - MARGIN;
    // The columns of an A4 page, stretched or narrowed to this page's width.
    this.columns = [MARGIN, MARGIN + 112, MARGIN + 190, MARGIN + 310, MARGIN + 430].map(
      (x) => (x - MARGIN) * ((this.right - MARGIN) / (595.28 - 2 * MARGIN)) + MARGIN,
    );
  }

  /** The title, then the contract's facts: name, key, status, the hashes, when the trail was made. */
  facts(audit: AuditTrail & { documentSha256: string }): void {
    const fonts = this.fonts;
    this.text('Audit trail', MARGIN, 18, fonts.bold);
    this.y -= 28;
    const facts: [string, string][] = [
      ['Contract', audit.name],
      ['Contract key', audit.contractKey],
      ['Status', audit.status],
      ['Document SHA-256', audit.documentSha256],
      ...(audit.uploadSha256 ? [['Uploaded file SHA-256', audit.uploadSha256] as [string, string]] : []),
      ['Generated', audit.generatedAt],
    ];
    for (const [label, value] of facts) {
      this.text(label, MARGIN, 9, fonts.bold, GREY);
      const sha = label.includes('SHA');
      this.text(value, MARGIN + 120, sha ? 7.5 : 9, sha ? fonts.mono : fonts.regular);
      this.y -= 15;
    }
    // Six facts take the room planned for the first page; five leave a row's worth unused.
    this.y -= 4 + 15 * (6 - facts.length);
    this.text(
      'The document SHA-256 is of this file without its audit trail pages, as the sandbox produced it.',
      MARGIN,
      7.5,
      fonts.italic,
      GREY,
    );
    this.y -= 22;
  }

  /** The rows' column names, underlined. */
  header(): void {
    ['Time (UTC)', 'Event', 'Name', 'Email', 'IP'].forEach((label, i) => {
      this.text(label, this.columns[i]!, 8.5, this.fonts.bold);
    });
    this.y -= 6;
    const y = this.y;
    this.page.drawLine({ start: { x: MARGIN, y }, end: { x: this.right, y }, thickness: 0.5, color: GREY });
    this.y -= 12;
  }

  /** A new page, titled as the trail continued, with the column names again. */
  nextPage(): void {
    this.page = this.doc.addPage([this.size.width, this.size.height]);
    this.y = this.size.height - MARGIN;
    this.text('Audit trail (continued)', MARGIN, 12, this.fonts.bold);
    this.y -= 22;
    this.header();
  }

  /** One step of the history, each value shortened to its column. */
  row(values: string[]): void {
    values.forEach((value, i) => {
      const x = this.columns[i]!;
      this.text(value, x, 8, this.fonts.regular, INK, (this.columns[i + 1] ?? this.right) - x - 6);
    });
    this.y -= ROW;
  }

  private text(value: string, x: number, fontSize: number, font: PDFFont, color = INK, room = this.right - x): void {
    const shown = this.measure.shorten(font, clean(value), fontSize, room);
    this.page.drawText(shown, { x, y: this.y, size: fontSize, font, color });
  }
}

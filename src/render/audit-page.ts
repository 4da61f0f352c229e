/**
 * The audit trail pages appended to a fully signed contract (docs/documents.md "The audit trail"), on the
 * document's own page size: its facts, then one row per step of the history, continued on as many pages as the
 * rows need. Values too wide for their column are shortened with "…".
 */
import type { PDFDocument, PDFFont, PDFPage } from 'pdf-lib';
import { clean, fontsOf, GREY, INK, Measure } from './fonts.js';
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
  const fonts = fontsOf(doc);
  const measure = new Measure();
  const right = size.width - MARGIN;
  let page: PDFPage = doc.addPage([size.width, size.height]);
  let y = size.height - MARGIN;
  const text = (value: string, x: number, fontSize: number, font: PDFFont, color = INK, room = right - x) =>
    page.drawText(measure.shorten(font, clean(value), fontSize, room), { x, y, size: fontSize, font, color });
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
    const sha = label.includes('SHA');
    text(value, MARGIN + 120, sha ? 7.5 : 9, sha ? fonts.mono : fonts.regular);
    y -= 15;
  }
  // Six facts take the room planned for the first page; five leave a row's worth unused.
  y -= 4 + 15 * (6 - facts.length);
  text(
    'The document SHA-256 is of this file without its audit trail pages, as the sandbox produced it.',
    MARGIN,
    7.5,
    fonts.italic,
    GREY,
  );
  y -= 22;
  const columns = [MARGIN, MARGIN + 112, MARGIN + 190, MARGIN + 310, MARGIN + 430].map(
    (x) => (x - MARGIN) * ((right - MARGIN) / (595.28 - 2 * MARGIN)) + MARGIN,
  );
  const header = () => {
    ['Time (UTC)', 'Event', 'Name', 'Email', 'IP'].forEach((label, i) => {
      text(label, columns[i]!, 8.5, fonts.bold);
    });
    y -= 6;
    page.drawLine({ start: { x: MARGIN, y }, end: { x: right, y }, thickness: 0.5, color: GREY });
    y -= 12;
  };
  header();
  const [first, next] = rowsPerPage(size);
  let left = first;
  for (const e of audit.events) {
    if (left === 0) {
      await pause();
      page = doc.addPage([size.width, size.height]);
      y = size.height - MARGIN;
      text('Audit trail (continued)', MARGIN, 12, fonts.bold);
      y -= 22;
      header();
      left = next;
    }
    [e.time, e.event, e.name, e.email, e.ip].forEach((value, i) => {
      text(value, columns[i]!, 8, fonts.regular, INK, (columns[i + 1] ?? right) - columns[i]! - 6);
    });
    y -= ROW;
    left--;
  }
}

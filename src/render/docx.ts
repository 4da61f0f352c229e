/**
 * DOCX making with the `docx` library (docs/documents.md): an HTML contract's blocks (html-blocks.ts, the same
 * reading the PDF uses) as Word headings, paragraphs, bulleted and numbered lists and tables, bold/italic/underline
 * kept; a drawn signature reads as its description.
 */
import {
  AlignmentType,
  Document,
  HeadingLevel,
  LevelFormat,
  Packer,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
} from 'docx';
import { ApiError } from '../core/errors.js';
import { type Block, htmlToBlocks, type Run } from './html-blocks.js';
import type { DocxJob } from './jobs.js';

const HEADINGS = [
  HeadingLevel.HEADING_1,
  HeadingLevel.HEADING_2,
  HeadingLevel.HEADING_3,
  HeadingLevel.HEADING_4,
  HeadingLevel.HEADING_5,
  HeadingLevel.HEADING_6,
] as const;
const NUMBERED = 'contract-numbered';

/**
 * The most paragraphs, table cells and line breaks a DOCX may hold (docs/documents.md, work limits): the docx
 * library builds the whole document in one go, and took a minute over 200,000 line breaks.
 */
export const MAX_DOCX_PARTS = 20_000;

export async function renderDocx(job: DocxJob): Promise<Uint8Array> {
  const blocks = htmlToBlocks(job.html, job.fills);
  checkParts(blocks);
  const doc = new Document({
    creator: 'esign-sandbox',
    title: job.title,
    numbering: { config: [numberedList()] },
    sections: [{ children: docxChildren(blocks) }],
  });
  return new Uint8Array(await Packer.toBuffer(doc));
}

/** Refuses (422) a document of more than MAX_DOCX_PARTS paragraphs, table cells and line breaks. */
function checkParts(blocks: Block[]): void {
  let parts = 0;
  for (const block of blocks) {
    const lists = block.kind === 'table' ? block.rows.flatMap((r) => r.cells) : 'runs' in block ? [block.runs] : [[]];
    parts += lists.length;
    for (const runs of lists) for (const run of runs) if (run.text === '\n') parts++;
  }
  if (parts > MAX_DOCX_PARTS)
    throw new ApiError(
      422,
      `The contract is too large for a DOCX: ${parts} paragraphs, table cells and line breaks, more than the sandbox's limit of ${MAX_DOCX_PARTS} (docs/documents.md)`,
    );
}

/** The blocks as the document's paragraphs and tables. */
function docxChildren(blocks: Block[]): (Paragraph | Table)[] {
  const children: (Paragraph | Table)[] = [];
  let instance = 0;
  let previous: Block | undefined;
  for (const block of blocks) {
    if (block.kind === 'heading')
      children.push(new Paragraph({ heading: HEADINGS[block.level - 1], children: runs(block.runs) }));
    else if (block.kind === 'paragraph') children.push(new Paragraph({ children: runs(block.runs) }));
    else if (block.kind === 'rule')
      children.push(
        new Paragraph({ border: { bottom: { style: 'single', size: 6, color: '999999', space: 1 } }, children: [] }),
      );
    else if (block.kind === 'item') {
      // Each ordered list counts from its own start: a new numbering instance whenever a list begins.
      if (block.ordered && (previous?.kind !== 'item' || (!previous.ordered && previous.depth === block.depth)))
        instance++;
      children.push(
        new Paragraph({
          children: runs(block.runs),
          ...(block.ordered
            ? { numbering: { reference: NUMBERED, level: Math.min(block.depth, 8), instance } }
            : { bullet: { level: Math.min(block.depth, 8) } }),
        }),
      );
    } else children.push(table(block), new Paragraph({ children: [] }));
    previous = block;
  }
  return children;
}

/** A table across the page, its columns of one width (the widest row's count), a short row's missing cells empty. */
function table(block: Extract<Block, { kind: 'table' }>): Table {
  let columns = 1;
  for (const row of block.rows) if (row.cells.length > columns) columns = row.cells.length;
  return new Table({
    width: { size: 100, type: WidthType.PERCENTAGE },
    rows: block.rows.map(
      (row) =>
        new TableRow({
          tableHeader: row.header,
          children: Array.from(
            { length: columns },
            (_, i) =>
              new TableCell({
                width: { size: Math.floor(100 / columns), type: WidthType.PERCENTAGE },
                children: [new Paragraph({ children: runs(row.cells[i] ?? []) })],
              }),
          ),
        }),
    ),
  });
}

/** The numbering of ordered lists: `1.` at every level, each level indented one more step. */
function numberedList() {
  return {
    reference: NUMBERED,
    levels: Array.from({ length: 9 }, (_, level) => ({
      level,
      format: LevelFormat.DECIMAL,
      text: `%${level + 1}.`,
      alignment: AlignmentType.START,
      style: { paragraph: { indent: { left: 720 * (level + 1), hanging: 360 } } },
    })),
  };
}

function runs(list: Run[]): TextRun[] {
  return list.map((r) =>
    r.text === '\n'
      ? new TextRun({ text: '', break: 1 })
      : new TextRun({ text: r.text, bold: !!r.bold, italics: !!r.italic, ...(r.underline ? { underline: {} } : {}) }),
  );
}

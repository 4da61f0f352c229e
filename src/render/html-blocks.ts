/**
 * A contract's HTML as a list of blocks (headings, paragraphs, list items, tables, rules) made of styled
 * text runs, with its placeholders filled: the one reading of the HTML that both the PDF and the DOCX renderers
 * lay out, so the two files always say the same thing. Parsed with htmlparser2 (forgiving, like a browser);
 * anything else (images, scripts, styles, forms) is left out, its text kept where it has any.
 *
 * Placeholders in the HTML are the real service's tags: `<placeholderN>` for the ordinary placeholder whose `id`
 * is N, and `<signN>`, `<dateN>`, `<fullnameN>`, `<emailN>` for a recipient's special placeholders
 * [docs/compatibility.md: "the N in the HTML tags <signN>, <dateN>, <fullnameN>, <emailN>"]. A tag is replaced by its
 * placeholder's value (the domain gives the values as `Fills`); a tag without a value keeps its own text.
 *
 * Work limits (docs/documents.md): the nesting is bounded before parsing (core/html-nesting.ts), and the walk reads
 * anything deeper still as plain text, without recursion, so no nesting can overflow the stack.
 */
import { parseDocument } from 'htmlparser2';
import { limitNesting, MAX_HTML_DEPTH } from '../core/html-nesting.js';
import type { FillValue, Fills, SignatureImage } from './jobs.js';

export interface Run {
  text: string;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  /** A drawn signature in running text; `text` is its description. */
  image?: SignatureImage;
}

/** Elements nested deeper than this are read as their text only (docs/documents.md). */
const MAX_DEPTH = MAX_HTML_DEPTH;

export type Block =
  | { kind: 'heading'; level: 1 | 2 | 3 | 4 | 5 | 6; runs: Run[] }
  | { kind: 'paragraph'; runs: Run[] }
  | { kind: 'item'; ordered: boolean; number: number; depth: number; runs: Run[] }
  | { kind: 'table'; rows: { header: boolean; cells: Run[][] }[] }
  | { kind: 'rule' };

type Doc = ReturnType<typeof parseDocument>;
type Node = Doc['children'][number];
type Parent = { children: Node[] };
type Style = Omit<Run, 'text'>;
/** The list an item is in: numbered or not, and how deep inside other lists. */
type List = { ordered: boolean; depth: number };
type TableValue = Extract<FillValue, { table: unknown }>['table'];

const SKIPPED = new Set([
  'script',
  'style',
  'head',
  'title',
  'template',
  'noscript',
  'iframe',
  'object',
  'svg',
  'select',
  'button',
]);
const BLOCKS = new Set([
  'p',
  'div',
  'section',
  'article',
  'header',
  'footer',
  'main',
  'aside',
  'blockquote',
  'pre',
  'address',
  'center',
  'figure',
  'figcaption',
  'dl',
  'dt',
  'dd',
  'form',
  'fieldset',
  'body',
  'html',
  'nav',
]);

export function htmlToBlocks(html: string, fills: Fills): Block[] {
  const doc = parseDocument(limitNesting(html), { decodeEntities: true, lowerCaseTags: true });
  const reading = new BlockReading(fills);
  reading.blocks(doc.children, {}, 0);
  reading.flush();
  return reading.out;
}

type Element = { name: string; children: Node[]; attribs: Record<string, string> };

/** An element's tag name, or undefined for text and other nodes. */
function tagName(node: Node): string | undefined {
  return node.type === 'tag' ? (node as unknown as Element).name : undefined;
}

/** One walk over a contract's HTML: the blocks read so far, and the runs of the paragraph being read. */
class BlockReading {
  readonly out: Block[] = [];
  private runs: Run[] = [];
  // A value's spaces collapsed once per tag, however often the tag is repeated (docs/documents.md, work limits).
  private readonly collapsed = new Map<string, string>();

  constructor(private readonly fills: Fills) {}

  /** Ends the paragraph being read (kept when it has any text). */
  flush(): void {
    const trimmed = trimRuns(this.runs);
    if (trimmed.length) this.out.push({ kind: 'paragraph', runs: trimmed });
    this.runs = [];
  }

  /** Nodes where a block may stand; deeper than MAX_DEPTH, their text only. */
  blocks(nodes: Node[], style: Style, nesting: number, list?: List): void {
    if (nesting > MAX_DEPTH) this.inline(nodes, style, this.runs, nesting);
    else for (const node of nodes) this.block(node, style, nesting, list);
  }

  /** One node where a block may stand: a table value, text that joins the paragraph, or a block element. */
  private block(node: Node, style: Style, nesting: number, list: List | undefined): void {
    const name = tagName(node);
    const table = name === undefined ? undefined : this.tableFill(name);
    if (table) this.tableValue(table, style);
    else if (node.type === 'text' || (name !== undefined && !isBlockTag(name)))
      this.inline([node], style, this.runs, nesting);
    else if (name !== undefined && !SKIPPED.has(name)) this.element(node as unknown as Element, style, nesting, list);
  }

  /** A block element: each ends the paragraph before it. */
  private element(el: Element, style: Style, nesting: number, list: List | undefined): void {
    const heading = /^h([1-6])$/.exec(el.name);
    this.flush();
    if (heading) this.heading(el, Number(heading[1]) as 1, style, nesting);
    else if (el.name === 'hr') this.out.push({ kind: 'rule' });
    else if (el.name === 'ul' || el.name === 'ol') this.list(el, style, nesting, list);
    else if (el.name === 'table') this.table(el, style, nesting);
    else {
      this.blocks(el.children, { ...style, ...styleOf(el.name) }, nesting + 1, list);
      this.flush();
    }
  }

  /** A table value where a paragraph may stand: a table of its own, the columns as its header row. */
  private tableValue(table: TableValue, style: Style): void {
    this.flush();
    const cells = (row: string[], header: boolean) =>
      row.map((text) =>
        text.trim() ? [{ text: text.replace(/\s+/g, ' ').trim(), ...style, ...(header ? { bold: true } : {}) }] : [],
      );
    this.out.push({
      kind: 'table',
      rows: [
        { header: true, cells: cells(table.columns, true) },
        ...table.rows.map((r) => ({ header: false, cells: cells(r, false) })),
      ],
    });
  }

  private heading(el: Element, level: 1, style: Style, nesting: number): void {
    const headingRuns: Run[] = [];
    this.inline(el.children, { ...style, bold: true }, headingRuns, nesting + 1);
    const trimmed = trimRuns(headingRuns);
    if (trimmed.length) this.out.push({ kind: 'heading', level, runs: trimmed });
  }

  /** A `ul` or `ol`: one item per `li`, its own text first; a list inside an item follows as deeper items. */
  private list(el: Element, style: Style, nesting: number, outer: List | undefined): void {
    const ordered = el.name === 'ol';
    const depth = (outer?.depth ?? -1) + 1;
    let number = Number(el.attribs.start ?? '1');
    if (!Number.isFinite(number)) number = 1;
    for (const child of el.children) {
      if (tagName(child) !== 'li') {
        this.blocks([child], style, nesting + 1, { ordered, depth });
        continue;
      }
      const children = (child as unknown as Element).children;
      const isList = (n: Node) => ['ul', 'ol'].includes(tagName(n) ?? '');
      const itemRuns: Run[] = [];
      this.inline(
        children.filter((n) => !isList(n)),
        style,
        itemRuns,
        nesting + 1,
      );
      this.out.push({ kind: 'item', ordered, number: number++, depth, runs: trimRuns(itemRuns) });
      this.blocks(children.filter(isList), style, nesting + 1, { ordered, depth });
    }
  }

  private table(el: Element, style: Style, nesting: number): void {
    const rows = tableRows(el).map((tr) => ({
      header: tr.cells.every((c) => c.header),
      cells: tr.cells.map((c) => {
        const cellRuns: Run[] = [];
        this.inline(c.children, c.header ? { ...style, bold: true } : style, cellRuns, nesting + 1);
        return trimRuns(cellRuns);
      }),
    }));
    if (rows.length) this.out.push({ kind: 'table', rows });
  }

  /** Nodes inside a line, as runs into `into`; deeper than MAX_DEPTH, their text only. */
  private inline(nodes: Node[], style: Style, into: Run[], depth: number): void {
    if (depth > MAX_DEPTH) {
      const text = flatText(nodes).replace(/\s+/g, ' ');
      if (text) into.push({ text, ...style });
      return;
    }
    for (const node of nodes) {
      if (node.type === 'text') {
        const text = (node as unknown as { data: string }).data.replace(/\s+/g, ' ');
        if (text) into.push({ text, ...style });
        continue;
      }
      const name = tagName(node);
      if (name === undefined || SKIPPED.has(name)) continue;
      const value = this.fills.get(name);
      if (name === 'br') into.push({ text: '\n', ...style });
      else if (value !== undefined && value !== '') this.fill(name, value, style, into);
      else this.inline((node as unknown as Element).children, { ...style, ...styleOf(name) }, into, depth + 1);
    }
  }

  /** A placeholder's value inside a line: its text, its table's rows as lines, or a drawn signature. */
  private fill(name: string, value: FillValue, style: Style, into: Run[]): void {
    if (typeof value === 'string') {
      if (!this.collapsed.has(name)) this.collapsed.set(name, value.replace(/\s+/g, ' '));
      into.push({ text: this.collapsed.get(name)!, ...style });
    } else if ('table' in value) {
      // A table inside a line (a heading, a list item, a cell, bold text): its rows as lines, cells parted by |.
      for (const row of [value.table.columns, ...value.table.rows])
        into.push({ text: '\n', ...style }, { text: row.join(' | '), ...style });
    } else into.push({ text: value.alt, image: value.image, ...style });
  }

  private tableFill(name: string): TableValue | undefined {
    const value = this.fills.get(name);
    return value !== undefined && typeof value !== 'string' && 'table' in value ? value.table : undefined;
  }
}

/** The text of some nodes, skipped elements left out, read with a stack of its own (any nesting depth). */
function flatText(nodes: Node[]): string {
  const parts: string[] = [];
  const stack: Node[] = [...nodes].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (node.type === 'text') parts.push((node as unknown as { data: string }).data);
    else if (node.type === 'tag') {
      const el = node as unknown as { name: string; children: Node[] };
      if (SKIPPED.has(el.name)) continue;
      if (el.name === 'br') parts.push(' ');
      for (let i = el.children.length - 1; i >= 0; i--) stack.push(el.children[i]!);
    }
  }
  return parts.join('');
}

function isBlockTag(name: string): boolean {
  return (
    BLOCKS.has(name) ||
    /^h[1-6]$/.test(name) ||
    name === 'ul' ||
    name === 'ol' ||
    name === 'table' ||
    name === 'hr' ||
    name === 'li'
  );
}

function styleOf(tag: string): Style {
  if (tag === 'b' || tag === 'strong') return { bold: true };
  if (tag === 'i' || tag === 'em' || tag === 'cite') return { italic: true };
  if (tag === 'u' || tag === 'ins') return { underline: true };
  return {};
}

function tableRows(table: Parent): { cells: { header: boolean; children: Node[] }[] }[] {
  const rows: { cells: { header: boolean; children: Node[] }[] }[] = [];
  const walk = (parent: Parent) => {
    for (const node of parent.children) {
      if (node.type !== 'tag') continue;
      const el = node as unknown as { name: string; children: Node[] };
      if (el.name === 'tr') {
        const cells = el.children
          .filter((c) => c.type === 'tag' && ['td', 'th'].includes((c as unknown as { name: string }).name))
          .map((c) => ({
            header: (c as unknown as { name: string }).name === 'th',
            children: (c as unknown as Parent).children,
          }));
        if (cells.length) rows.push({ cells });
      } else if (['thead', 'tbody', 'tfoot'].includes(el.name)) walk(el as unknown as Parent);
    }
  };
  walk(table);
  return rows;
}

/** Collapses the spaces HTML collapses: none at the start or end of a block, none after a line break. */
function trimRuns(runs: Run[]): Run[] {
  const out: Run[] = [];
  let atLineStart = true;
  for (const run of runs) {
    let text = run.text;
    if (text === '\n') {
      if (out.length && out[out.length - 1]!.text !== '\n')
        out[out.length - 1]!.text = out[out.length - 1]!.text.replace(/ +$/, '');
      out.push({ ...run });
      atLineStart = true;
      continue;
    }
    if (atLineStart) text = text.replace(/^ +/, '');
    else if (out.length && out[out.length - 1]!.text.endsWith(' ')) text = text.replace(/^ +/, '');
    if (!text) continue;
    out.push({ ...run, text });
    atLineStart = false;
  }
  while (out.length && (out[out.length - 1]!.text === '\n' || out[out.length - 1]!.text.trim() === '')) out.pop();
  if (out.length) out[out.length - 1]!.text = out[out.length - 1]!.text.replace(/ +$/, '');
  return out;
}

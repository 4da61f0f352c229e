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
import type { Fills, SignatureImage } from './jobs.js';

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
  const out: Block[] = [];
  let runs: Run[] = [];
  // A value's spaces collapsed once per tag, however often the tag is repeated (docs/documents.md, work limits).
  const collapsed = new Map<string, string>();
  const spaced = (tag: string, value: string) => {
    if (!collapsed.has(tag)) collapsed.set(tag, value.replace(/\s+/g, ' '));
    return collapsed.get(tag)!;
  };
  const flush = () => {
    const trimmed = trimRuns(runs);
    if (trimmed.length) out.push({ kind: 'paragraph', runs: trimmed });
    runs = [];
  };

  const inline = (nodes: Node[], style: Style, into: Run[], depth: number) => {
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
      if (node.type !== 'tag') continue;
      const el = node as unknown as { name: string; children: Node[] };
      if (SKIPPED.has(el.name)) continue;
      if (el.name === 'br') into.push({ text: '\n', ...style });
      else if (fills.has(el.name) && fills.get(el.name) !== '') {
        const value = fills.get(el.name)!;
        if (typeof value === 'string') into.push({ text: spaced(el.name, value), ...style });
        else if ('table' in value) {
          // A table inside a line (a heading, a list item, a cell, bold text): its rows as lines, cells parted by |.
          for (const row of [value.table.columns, ...value.table.rows])
            into.push({ text: '\n', ...style }, { text: row.join(' | '), ...style });
        } else into.push({ text: value.alt, image: value.image, ...style });
      } else inline(el.children, { ...style, ...styleOf(el.name) }, into, depth + 1);
    }
  };

  const block = (nodes: Node[], style: Style, nesting: number, list?: { ordered: boolean; depth: number }) => {
    if (nesting > MAX_DEPTH) {
      inline(nodes, style, runs, nesting);
      return;
    }
    for (const node of nodes) {
      const table = node.type === 'tag' ? tableFill((node as unknown as { name: string }).name) : undefined;
      if (table) {
        // A table value where a paragraph may stand: a table of its own, the columns as its header row.
        flush();
        const cells = (row: string[], header: boolean) =>
          row.map((text) =>
            text.trim()
              ? [{ text: text.replace(/\s+/g, ' ').trim(), ...style, ...(header ? { bold: true } : {}) }]
              : [],
          );
        out.push({
          kind: 'table',
          rows: [
            { header: true, cells: cells(table.columns, true) },
            ...table.rows.map((r) => ({ header: false, cells: cells(r, false) })),
          ],
        });
        continue;
      }
      if (node.type === 'text' || (node.type === 'tag' && !isBlockTag((node as unknown as { name: string }).name))) {
        inline([node], style, runs, nesting);
        continue;
      }
      if (node.type !== 'tag') continue;
      const el = node as unknown as { name: string; children: Node[]; attribs: Record<string, string> };
      if (SKIPPED.has(el.name)) continue;
      const heading = /^h([1-6])$/.exec(el.name);
      if (heading) {
        flush();
        const headingRuns: Run[] = [];
        inline(el.children, { ...style, bold: true }, headingRuns, nesting + 1);
        const trimmed = trimRuns(headingRuns);
        if (trimmed.length) out.push({ kind: 'heading', level: Number(heading[1]) as 1, runs: trimmed });
      } else if (el.name === 'hr') {
        flush();
        out.push({ kind: 'rule' });
      } else if (el.name === 'ul' || el.name === 'ol') {
        flush();
        let number = Number(el.attribs.start ?? '1');
        if (!Number.isFinite(number)) number = 1;
        for (const child of el.children) {
          if (child.type !== 'tag' || (child as unknown as { name: string }).name !== 'li') {
            block([child], style, nesting + 1, { ordered: el.name === 'ol', depth: (list?.depth ?? -1) + 1 });
            continue;
          }
          const li = child as unknown as { children: Node[] };
          const depth = (list?.depth ?? -1) + 1;
          // The item's own text first; a nested list inside it follows as deeper items.
          const own = li.children.filter(
            (n) => !(n.type === 'tag' && ['ul', 'ol'].includes((n as unknown as { name: string }).name)),
          );
          const nested = li.children.filter(
            (n) => n.type === 'tag' && ['ul', 'ol'].includes((n as unknown as { name: string }).name),
          );
          const itemRuns: Run[] = [];
          inline(own, style, itemRuns, nesting + 1);
          out.push({ kind: 'item', ordered: el.name === 'ol', number: number++, depth, runs: trimRuns(itemRuns) });
          block(nested, style, nesting + 1, { ordered: el.name === 'ol', depth });
        }
      } else if (el.name === 'table') {
        flush();
        const rows = tableRows(el as unknown as Parent).map((tr) => ({
          header: tr.cells.every((c) => c.header),
          cells: tr.cells.map((c) => {
            const cellRuns: Run[] = [];
            inline(c.children, c.header ? { ...style, bold: true } : style, cellRuns, nesting + 1);
            return trimRuns(cellRuns);
          }),
        }));
        if (rows.length) out.push({ kind: 'table', rows });
      } else {
        flush();
        block(el.children, { ...style, ...styleOf(el.name) }, nesting + 1, list);
        flush();
      }
    }
  };

  const tableFill = (name: string) => {
    const value = fills.get(name);
    return value !== undefined && typeof value !== 'string' && 'table' in value ? value.table : undefined;
  };

  block(doc.children, {}, 0);
  flush();
  return out;
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

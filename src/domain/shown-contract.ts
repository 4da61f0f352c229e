/**
 * The contract as shown: an HTML contract with its placeholder tags filled. The one home of what a tag shows,
 * read by every place that shows a contract (docs/documents.md, "The contract as shown"):
 * - the API answers `returnValue` → `contractValue` and `recipient_contract` (`filledHtml`),
 * - the recipient page (`pageHtml`, sanitised on the render worker before it is sent),
 * - the PDF and DOCX files (`documentFills`, laid out by the renderer).
 *
 * It has one tag reader (`replacePlaceholderTags`: one pass, linear in the HTML whatever the number of tags and
 * placeholders) and one rule for each shown value (`shownValue`). Each place only writes the value its own way.
 *
 * How HTML marks placeholders: a recipient's special placeholders are `<signN>`, `<dateN>`, `<fullnameN>` and
 * `<emailN>`, N being the id the four share [D:placeholder/pdfspecial]; ordinary placeholders are `<placeholderN>`
 * with their own id (the sandbox's reading of the editor's markup; no source shows it).
 */
import { ApiError } from '../core/errors.js';
import { peopleTime } from '../core/time-format.js';
import { type RecipientSpecialType, SPECIAL, specialTypeName, specialTypeOf } from '../core/vocabulary.js';
import type { FillValue, Fills, Stamp } from '../render/renderer.js';
import type { PlaceholderRecord, RecipientRecord } from '../store/records.js';
import type { OpContext } from './context.js';
import { placeholdersOf } from './placeholders.js';
import { escapeMarkup } from '../core/markup.js';
import { recipientName } from './recipients.js';

/** What one placeholder tag shows. */
export type Shown =
  /** Nothing yet (no value, or a name or signature before its recipient signed): what the field is for. */
  | { kind: 'empty'; label: string }
  | { kind: 'text'; text: string; signature: boolean }
  | { kind: 'table'; columns: string[]; rows: string[][] }
  /** A signature given as an image (`data:image/…`); `signer` is who signed. */
  | { kind: 'image'; src: string; signer: string };

/** What the rule needs to know of the recipient a special placeholder belongs to. */
export interface Signer {
  state: RecipientRecord['state'];
  /** The name the recipient signed as (or its email), for an image's description. */
  name: string;
}

/** The shown value of every placeholder tag of a contract, by tag (`placeholder3`, `sign2`). */
export type ShownTags = ReadonlyMap<string, Shown>;

/**
 * The filled contract may be this many characters long at most, ten times the HTML limit (docs/documents.md, work
 * limits): a tag repeated 15,000 times with a 100,000-character value would otherwise make gigabytes.
 */
export const MAX_SHOWN_CHARS = 10_000_000;

// ---- the rule ----------------------------------------------------------------------------------------------

/**
 * What a placeholder shows (docs/documents.md, "The contract as shown"), wherever it is shown:
 * - its special type is its `specialType`, or else the `_N` ending of its key (records written without one);
 * - a recipient's full name and signature show only once that recipient has signed or approved: before, the tag
 *   shows what the field is for, so an unsigned contract never reads as signed;
 * - an empty value shows what the field is for;
 * - a table value (`isTable`, JSON `{columns, rows}`) shows as a table, or as its text when it is not such JSON;
 * - a date signed shows in the time format for people (`2026-11-21 09:00:00 UTC`);
 * - a signature given as an image (`data:image/…`) shows as that image, described by the signer's name;
 * - anything else shows its text.
 */
export function shownValue(p: PlaceholderRecord, signer: Signer | undefined): Shown {
  const type = p.isSpecial ? specialTypeOf(p) : undefined;
  const label = p.isSpecial ? specialTypeName(p) : p.name || `placeholder ${p.id}`;
  const hidden =
    (type === SPECIAL.fullName || type === SPECIAL.signature) &&
    p.recipientKey !== undefined &&
    signer?.state !== 'signed' &&
    signer?.state !== 'approved';
  if (hidden || p.value === '') return { kind: 'empty', label };
  if (p.isTable) {
    const table = tableOf(p.value);
    if (table) return table;
  }
  if (type === SPECIAL.date) return { kind: 'text', text: peopleTime(p.value), signature: false };
  if (type === SPECIAL.signature && p.value.startsWith('data:image/'))
    return { kind: 'image', src: p.value, signer: signer?.name ?? '' };
  return { kind: 'text', text: p.value, signature: type === SPECIAL.signature };
}

function tableOf(value: string): Shown | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  const { columns, rows } = (parsed ?? {}) as { columns?: unknown; rows?: unknown };
  if (!Array.isArray(columns) || !Array.isArray(rows) || !rows.every(Array.isArray)) return undefined;
  const text = (v: unknown) => String(v ?? '');
  return { kind: 'table', columns: columns.map(text), rows: (rows as unknown[][]).map((r) => r.map(text)) };
}

/** The shown value of every placeholder tag of the contract now. */
export function shownTags(ctx: OpContext, contractKey: string): ShownTags {
  return new Map(shownPlaceholders(ctx, contractKey).map((x) => [x.tag, x.shown]));
}

/** Every placeholder of a contract, its tag and what it shows now. */
export function shownPlaceholders(
  ctx: OpContext,
  contractKey: string,
): { placeholder: PlaceholderRecord; tag: string; shown: Shown }[] {
  const placeholders = placeholdersOf(ctx, { contractKey });
  const signers = new Map<string, Signer>();
  const signerOf = (recipientKey: string): Signer | undefined => {
    if (!signers.has(recipientKey)) {
      const r = ctx.store.recipients.get(recipientKey);
      if (!r) return undefined;
      // The name as signed (the recipient's full-name placeholder), else as sent.
      const signedAs = placeholders.find(
        (p) => p.recipientKey === recipientKey && specialTypeOf(p) === SPECIAL.fullName,
      )?.value;
      signers.set(recipientKey, { state: r.state, name: signedAs || recipientName(r) || '' });
    }
    return signers.get(recipientKey);
  };
  return placeholders.map((p) => ({
    placeholder: p,
    tag: tagOf(p),
    shown: shownValue(p, p.recipientKey ? signerOf(p.recipientKey) : undefined),
  }));
}

// ---- the tag reader ----------------------------------------------------------------------------------------

export const SPECIAL_TAG: Record<RecipientSpecialType, string> = { 1: 'date', 2: 'fullname', 3: 'email', 4: 'sign' };

/** The tag name (with its id) that marks this placeholder: `placeholder3`, `sign2`. */
export function tagOf(p: PlaceholderRecord): string {
  const type = p.isSpecial ? specialTypeOf(p) : undefined;
  return type !== undefined && type in SPECIAL_TAG
    ? `${SPECIAL_TAG[type as RecipientSpecialType]}${p.id}`
    : `placeholder${p.id}`;
}

/** One placeholder tag as read: its name (lower case), id, the opening tag's attributes, and its whole text. */
export interface Tag {
  name: string;
  id: string;
  /** What the opening tag holds after its name (` class="x"`), a closing `/` left out. */
  attributes: string;
  /** The tag's text in the HTML: the opening tag through its closing tag, or the lone opening tag. */
  source: string;
}

/**
 * Replaces each placeholder tag of some HTML, a paired tag with its content or a lone (or self-closing) one, by
 * `replace(name, id, tag)`. One pass over the text (docs/documents.md, work limits): each tag's closing tag is
 * looked up among the closing tags ahead, found once; a lazy regular expression searching ahead from every
 * unclosed tag took seconds on 15,000 of them.
 */
export function replacePlaceholderTags(html: string, replace: (name: string, id: string, tag: Tag) => string): string {
  const head = html.slice(0, html.lastIndexOf('>') + 1);
  // Every closing tag, by tag (`sign2`): its positions in order, and how far the search has gone.
  const closings = new Map<string, { at: number[]; end: number[]; next: number }>();
  const closing = /<\/(placeholder|sign|date|fullname|email)(\d+)\s*>/gi;
  for (let m = closing.exec(head); m; m = closing.exec(head)) {
    const key = `${m[1]!.toLowerCase()}${m[2]}`;
    const own = closings.get(key) ?? { at: [], end: [], next: 0 };
    closings.set(key, own);
    own.at.push(m.index);
    own.end.push(closing.lastIndex);
  }
  const opening = /<(placeholder|sign|date|fullname|email)(\d+)\b([^>]*)>/gi;
  // Appended as it goes: V8 joins the pieces once, at the end, with no array of them in between.
  let out = '';
  let last = 0;
  for (let m = opening.exec(head); m; m = opening.exec(head)) {
    const name = m[1]!.toLowerCase();
    let end = opening.lastIndex;
    const own = closings.get(`${name}${m[2]}`);
    if (own) {
      while (own.next < own.at.length && own.at[own.next]! < end) own.next++;
      if (own.next < own.at.length) end = own.end[own.next++]!;
    }
    const attributes = m[3]!.endsWith('/') ? m[3]!.slice(0, -1) : m[3]!;
    const tag = { name, id: m[2]!, attributes, source: html.slice(m.index, end) };
    out += html.slice(last, m.index) + replace(name, m[2]!, tag);
    last = end;
    opening.lastIndex = end;
  }
  return out + html.slice(last);
}

// ---- the places that show it -------------------------------------------------------------------------------

/**
 * The API's filled contract (`returnValue` → `contractValue`, `recipient_contract` once done): each tag with a
 * value keeps its tag and attributes around the value, escaped (a table as a `<table>`, an image signature as an
 * `<img>`); a tag with nothing to show stays as written.
 */
export function filledHtml(html: string, shown: ShownTags): string {
  return fill(
    html,
    shown,
    (value) => {
      if (value.kind === 'empty') return undefined;
      return value.kind === 'image' ? `<img src="${escapeMarkup(value.src)}" alt="signature">` : valueHtml(value);
    },
    (content, tag) => `<${tag.name}${tag.id}${tag.attributes}>${content}</${tag.name}${tag.id}>`,
  );
}

/**
 * The recipient page's contract: each tag replaced by its value in a `<span class="placeholder">` (a table as a
 * `<table>`, an image signature as an `<img class="signature">`), or by what the field is for in a
 * `<span class="placeholder empty">`. NOT safe to show as it is: the page sanitises it.
 */
export function pageHtml(html: string, shown: ShownTags): string {
  return fill(html, shown, (value) => {
    if (value.kind === 'empty') return `<span class="placeholder empty">${escapeMarkup(value.label)}</span>`;
    if (value.kind === 'image') {
      const alt = `Signature of ${value.signer}`.trim();
      return `<img class="signature" alt="${escapeMarkup(alt)}" src="${escapeMarkup(value.src)}">`;
    }
    if (value.kind === 'table') return valueHtml(value);
    return `<span class="placeholder${value.signature ? ' signature' : ''}">${escapeMarkup(value.text)}</span>`;
  });
}

/**
 * Fills each tag with `write(value)` (a tag of no placeholder shows its name and id as empty; `undefined` keeps
 * the tag as written), each tag's text written once however often it is repeated, `wrap` putting it in place; the
 * result bounded by MAX_SHOWN_CHARS, checked as it grows.
 */
function fill(
  html: string,
  shown: ShownTags,
  write: (value: Shown, tag: Tag) => string | undefined,
  wrap: (content: string, tag: Tag) => string = (content) => content,
): string {
  const written = new Map<string, string | undefined>();
  // A tag repeated as written (the same text) is filled the same way: its output is made once, and every repeat is
  // that one string again, not a new one. With the appending reader, 40,000 short tags fill in 29 ms instead of 103,
  // and the longest stall of their create with returnValue fell from 118-120 to 51-67 ms (docs/benchmarks.md).
  const filled = new Map<string, string>();
  let size = html.length;
  return replacePlaceholderTags(html, (name, id, tag) => {
    let out = filled.get(tag.source);
    if (out === undefined) {
      const key = `${name}${id}`;
      if (!written.has(key)) written.set(key, write(shown.get(key) ?? { kind: 'empty', label: `${name} ${id}` }, tag));
      const content = written.get(key);
      out = content === undefined ? tag.source : wrap(content, tag);
      filled.set(tag.source, out);
    }
    size += out.length - tag.source.length;
    if (size > MAX_SHOWN_CHARS) throw tooLong();
    return out;
  });
}

/** Refuses (422) an HTML contract whose filled form would pass MAX_SHOWN_CHARS, before a document is drawn. */
export function assertShownSize(html: string, shown: ShownTags): void {
  fill(html, shown, (value) => (value.kind === 'empty' ? undefined : ' '.repeat(shownLength(value))));
}

/** About how many characters a value takes once shown (a table: its cells and a few per cell). */
function shownLength(value: Shown): number {
  if (value.kind === 'text') return value.text.length;
  if (value.kind === 'image') return value.src.length;
  if (value.kind === 'empty') return value.label.length;
  return value.columns.join('').length + value.rows.reduce((n, r) => n + r.join('').length + 9 * r.length, 0);
}

function tooLong(): ApiError {
  return new ApiError(
    422,
    `The contract with its placeholders filled would be more than ${MAX_SHOWN_CHARS} characters long (the limit): a placeholder tag is repeated too often for its value`,
  );
}

/**
 * What the PDF and DOCX draw for each tag (the renderer lays them out, render/html-blocks.ts); a tag with nothing
 * to show keeps its own text. pdf-lib draws PNG and JPEG only: another image signature (the generated SVG, GIF,
 * WebP) reads `Signed: <name>`.
 */
export function documentFills(shown: ShownTags): Fills {
  const fills = new Map<string, FillValue>();
  for (const [tag, value] of shown) {
    if (value.kind === 'empty') continue;
    if (value.kind === 'text') fills.set(tag, value.text);
    else if (value.kind === 'table') fills.set(tag, { table: { columns: value.columns, rows: value.rows } });
    else {
      const image = signatureImage(value.src);
      fills.set(
        tag,
        image
          ? { image, alt: `Signature of ${value.signer || 'the signer'}` }
          : `Signed: ${value.signer || 'signature'}`,
      );
    }
  }
  return fills;
}

/**
 * What a box placed on a PDF contract draws: a text on one line (a table as its rows, cells parted by `|`), a PNG
 * or JPEG signature as its image, another image signature (the generated SVG, GIF, WebP: pdf-lib draws PNG and
 * JPEG only) as the signer's name in a script face, a typed signature as its text in that face.
 */
export function stampContent(value: Shown): Stamp['content'] {
  if (value.kind === 'empty') return { kind: 'empty', label: value.label };
  if (value.kind === 'table')
    return { kind: 'text', text: [value.columns, ...value.rows].map((r) => r.join(' | ')).join(' / ') };
  if (value.kind === 'text')
    return value.signature ? { kind: 'script', text: value.text } : { kind: 'text', text: value.text };
  const image = signatureImage(value.src);
  return image ? { kind: 'image', ...image } : { kind: 'script', text: value.signer || 'Signed' };
}

/** A PNG or JPEG signature's bytes (the only images pdf-lib draws), or undefined. */
export function signatureImage(value: string): { format: 'png' | 'jpeg'; bytes: Uint8Array } | undefined {
  const image = /^data:image\/(png|jpeg);base64,(.*)$/s.exec(value);
  return image
    ? { format: image[1] as 'png' | 'jpeg', bytes: new Uint8Array(Buffer.from(image[2]!, 'base64')) }
    : undefined;
}

function valueHtml(value: Extract<Shown, { kind: 'text' | 'table' }>): string {
  if (value.kind === 'text') return escapeMarkup(value.text);
  const head = value.columns.map((c) => `<th>${escapeMarkup(c)}</th>`).join('');
  const rows = value.rows.map((r) => `<tr>${r.map((v) => `<td>${escapeMarkup(v)}</td>`).join('')}</tr>`).join('');
  return `<table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
}

/**
 * How contract HTML marks its placeholders. A recipient's special placeholders are `<signN>`, `<dateN>`,
 * `<fullnameN>` and `<emailN>`, N being the id the four share [D:placeholder/pdfspecial]; ordinary placeholders are
 * `<placeholderN>` with their own id (the sandbox's reading of the editor's markup; no source shows it). One reading
 * for every place that fills the tags: API answers (`returnValue`), the recipient page, PDF and DOCX documents.
 */
import type { PlaceholderRecord } from '../store/records.js';
import { type RecipientSpecialType, specialTypeOf } from '../core/vocabulary.js';

export const SPECIAL_TAG: Record<RecipientSpecialType, string> = { 1: 'date', 2: 'fullname', 3: 'email', 4: 'sign' };

/**
 * Replaces each placeholder tag of some HTML, a paired tag with its content or a lone (or self-closing) one, by
 * `replace(name, id)` (name in lower case). One pass over the text (docs/documents.md, work limits): each tag's
 * closing tag is looked up among the closing tags ahead, found once; a lazy regular expression searching ahead from
 * every unclosed tag took seconds on 150,000 of them.
 */
export function replacePlaceholderTags(html: string, replace: (name: string, id: string) => string): string {
  const head = html.slice(0, html.lastIndexOf('>') + 1);
  // Every closing tag, by tag (`sign2`): its positions in order, and how far the search has gone.
  const closings = new Map<string, { at: number[]; end: number[]; next: number }>();
  const closing = /<\/(placeholder|sign|date|fullname|email)(\d+)\s*>/gi;
  for (let m = closing.exec(head); m; m = closing.exec(head)) {
    const key = `${m[1]!.toLowerCase()}${m[2]}`;
    let own = closings.get(key);
    if (!own) closings.set(key, (own = { at: [], end: [], next: 0 }));
    own.at.push(m.index);
    own.end.push(closing.lastIndex);
  }
  const opening = /<(placeholder|sign|date|fullname|email)(\d+)\b[^>]*>/gi;
  const out: string[] = [];
  let last = 0;
  for (let m = opening.exec(head); m; m = opening.exec(head)) {
    const name = m[1]!.toLowerCase();
    let end = opening.lastIndex;
    const own = closings.get(`${name}${m[2]}`);
    if (own) {
      while (own.next < own.at.length && own.at[own.next]! < end) own.next++;
      if (own.next < own.at.length) end = own.end[own.next++]!;
    }
    out.push(html.slice(last, m.index), replace(name, m[2]!));
    last = end;
    opening.lastIndex = end;
  }
  out.push(html.slice(last));
  return out.join('');
}

/** The tag name (with its id) that marks this placeholder: `placeholder3`, `sign2`. */
export function tagOf(p: PlaceholderRecord): string {
  const type = p.isSpecial ? specialTypeOf(p) : undefined;
  return type !== undefined && type in SPECIAL_TAG
    ? `${SPECIAL_TAG[type as RecipientSpecialType]}${p.id}`
    : `placeholder${p.id}`;
}

/** The placeholders by the tag that marks each (lower case). */
export function placeholdersByTag(placeholders: readonly PlaceholderRecord[]): Map<string, PlaceholderRecord> {
  return new Map(placeholders.map((p) => [tagOf(p), p]));
}

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!,
  );
}

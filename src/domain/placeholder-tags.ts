/**
 * How contract HTML marks its placeholders. A recipient's special placeholders are `<signN>`, `<dateN>`,
 * `<fullnameN>` and `<emailN>`, N being the id the four share [D:placeholder/pdfspecial]; ordinary placeholders are
 * `<placeholderN>` with their own id (the sandbox's reading of the editor's markup; no source shows it). One reading
 * for every place that fills the tags: API answers (`returnValue`), the recipient page, PDF and DOCX documents.
 */
import type { PlaceholderRecord } from '../store/records.js';
import { type RecipientSpecialType, specialTypeOf } from '../core/vocabulary.js';

export const SPECIAL_TAG: Record<RecipientSpecialType, string> = { 1: 'date', 2: 'fullname', 3: 'email', 4: 'sign' };

/** A paired tag with its content, or a lone (or self-closing) one: name in group 1, id in group 2. */
export const PLACEHOLDER_TAG = /<(placeholder|sign|date|fullname|email)(\d+)\b[^>]*>(?:[\s\S]*?<\/\1\2\s*>)?/gi;

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

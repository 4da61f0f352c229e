/**
 * An HTML contract as a reader sees it: its placeholder tags filled with their values. The real service marks
 * a recipient's special placeholders in the HTML with `<signN>`, `<dateN>`, `<fullnameN>`, `<emailN>`, N being the
 * id the four share [D:placeholder/pdfspecial]; ordinary placeholders are marked `<placeholderN>` with their own
 * id (the sandbox's reading of the editor's markup). The sandbox gives each special placeholder an id of its own,
 * so N names the recipient whose special placeholders include id N: `<sign1>` … `<sign4>` all mean the first
 * recipient's signature. The result is NOT safe to show as it is: the page sanitises it.
 */
import type { PlaceholderRecord } from '../store/records.js';

const SPECIAL_TAGS: Readonly<Record<string, 1 | 2 | 3 | 4>> = { date: 1, fullname: 2, email: 3, sign: 4 };
/** A paired tag with its content, or a lone (or self-closing) one. */
const TAG = /<(placeholder|sign|date|fullname|email)(\d+)\b[^>]*>(?:[\s\S]*?<\/\1\2\s*>)?/gi;

/** Replaces each placeholder tag with its value: text escaped, an image signature as an image. */
export function filledHtml(html: string, placeholders: readonly PlaceholderRecord[]): string {
  return html.replace(TAG, (_match, tag: string, id: string) => {
    const name = tag.toLowerCase();
    const special = SPECIAL_TAGS[name];
    const owner = special === undefined ? undefined : placeholders.find((p) => p.isSpecial && p.id === id)?.recipientKey;
    const placeholder =
      special === undefined
        ? placeholders.find((p) => !p.isSpecial && p.id === id)
        : placeholders.find((p) => p.isSpecial && p.recipientKey === owner && p.specialType === special);
    if (!placeholder || placeholder.value === '') {
      return `<span class="placeholder empty">${escapeHtml(placeholder?.name || `${name} ${id}`)}</span>`;
    }
    if (special === 4 && placeholder.value.startsWith('data:image/')) {
      return `<img class="signature" alt="${escapeHtml(`Signature of ${placeholders.find((p) => p.recipientKey === placeholder.recipientKey && p.specialType === 2)?.value ?? ''}`.trim())}" src="${escapeHtml(placeholder.value)}">`;
    }
    return `<span class="placeholder${special === 4 ? ' signature' : ''}">${escapeHtml(placeholder.value)}</span>`;
  });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
}

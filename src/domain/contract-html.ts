/**
 * An HTML contract as a reader sees it on the recipient page: each placeholder tag (placeholder-tags.ts) replaced by
 * its value, escaped, an image signature as an image, an empty one by its name. The result is NOT safe to show as it
 * is: the page sanitises it.
 */
import { peopleTime } from '../core/time-format.js';
import type { PlaceholderRecord } from '../store/records.js';
import { escapeHtml, placeholdersByTag, replacePlaceholderTags } from './placeholder-tags.js';

export function readableHtml(html: string, placeholders: readonly PlaceholderRecord[]): string {
  const byTag = placeholdersByTag(placeholders);
  return replacePlaceholderTags(html, (name, id) => {
    const placeholder = byTag.get(`${name}${id}`);
    if (!placeholder || placeholder.value === '') {
      return `<span class="placeholder empty">${escapeHtml(placeholder?.name || `${name} ${id}`)}</span>`;
    }
    const signature = placeholder.isSpecial && placeholder.specialType === 4;
    if (signature && placeholder.value.startsWith('data:image/')) {
      const signer =
        placeholders.find((p) => p.recipientKey === placeholder.recipientKey && p.specialType === 2)?.value ?? '';
      return `<img class="signature" alt="${escapeHtml(`Signature of ${signer}`.trim())}" src="${escapeHtml(placeholder.value)}">`;
    }
    // A date signed is stored as ISO; a reader sees it as every page and document shows times.
    const text =
      placeholder.isSpecial && placeholder.specialType === 1 ? peopleTime(placeholder.value) : placeholder.value;
    return `<span class="placeholder${signature ? ' signature' : ''}">${escapeHtml(text)}</span>`;
  });
}

/**
 * Text made safe inside HTML, SVG and XML, as character data or a quoted attribute: the one escaper (the contract
 * as shown, the drawn signature's SVG, the readiness report's JUnit XML). `&#39;` for the apostrophe reads the same
 * in all three.
 */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeMarkup(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);
}

/**
 * How much structure a JSON body may carry (docs/errors.md, "The body limit"). JSON.parse runs on the main thread,
 * and under the 10 MB body limit its cost depends on the shape, not the size: 10 MB of one string parses in
 * ~15 ms, but 500,000 keys in one object took ~500 ms, 1,000,000 empty objects ~310 ms and 100,000 recipients
 * (refused afterwards by the 500-recipient rule) ~250 ms, each stalling every other request meanwhile. The
 * largest real /api body (500 recipients, 1,000 placeholders, a 10,000-row table) stays far below these limits.
 */
import { ApiError } from '../core/errors.js';

export const JSON_SHAPE_LIMITS = {
  /** Objects and arrays (`{`, `[`). */
  containers: 20_000,
  /** Object members (`"key": value`). */
  members: 30_000,
  /** Values in arrays and objects (separating commas). */
  values: 300_000,
} as const;

/**
 * Below this many characters no shape can cost JSON.parse more than ~40 ms, so the scan is skipped (it reads
 * every character: ~20 ms for 10 MB).
 */
const SCAN_FROM = 256 * 1024;

/** Refuses, with a 400 naming the limit, JSON text with more structure than JSON_SHAPE_LIMITS allows. */
export function checkJsonShape(text: string, limits = JSON_SHAPE_LIMITS): void {
  if (text.length < SCAN_FROM) return;
  let containers = 0;
  let members = 0;
  let values = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x22) {
      // A string: skip to its closing quote, past escaped characters.
      for (i++; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 0x5c) i++;
        else if (c === 0x22) break;
      }
    } else if (ch === 0x7b || ch === 0x5b) containers++;
    else if (ch === 0x3a) members++;
    else if (ch === 0x2c) values++;
  }
  const over = (what: string, count: number, limit: number) =>
    ApiError.badRequest(
      `Request body has too much structure: ${count} ${what}, the limit is ${limit} (docs/errors.md, limits)`,
    );
  if (containers > limits.containers) throw over('objects and arrays', containers, limits.containers);
  if (members > limits.members) throw over('object members', members, limits.members);
  if (values > limits.values) throw over('values', values, limits.values);
}

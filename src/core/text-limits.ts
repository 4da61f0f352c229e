/**
 * How long a text field of an /api request may be (docs/errors.md "Limits"): generous enough that real use never
 * meets them, small enough that no field can make the sandbox's work (documents, pages, the audit trail) run
 * for minutes. Checked on every /api body before its schema, in one pass over the body with a stack of its own;
 * a longer field is a 400 naming the field and its limit.
 */
import { ApiError } from './errors.js';

/** The limits, in characters, by the field's name; the contract's or template's `value` is its HTML. */
export const TEXT_LIMITS = {
  /** An HTML contract's or template's content. */
  html: 1_000_000,
  /** A signature: a short text, or a drawn image as a data URI (a PNG of at most 1 MB, base64). */
  signature: 1_500_000,
  /** A placeholder's value. */
  value: 100_000,
  /** URLs and links. */
  url: 2_048,
  /** Names, emails, keys, ids, titles. */
  name: 500,
  /** Every other text (messages to recipients, descriptions). */
  other: 10_000,
} as const;

const HTML_OWNERS = new Set(['contract', 'template']);
const NAMES = new Set(['name', 'fullname', 'email', 'organization', 'title', 'id', 'position']);

function limitOf(path: readonly (string | number)[]): number {
  const field = String(path[path.length - 1] ?? '');
  if (field === 'value') return HTML_OWNERS.has(String(path[path.length - 2])) ? TEXT_LIMITS.html : TEXT_LIMITS.value;
  if (field === 'html' || field.endsWith('Value')) return TEXT_LIMITS.html;
  if (field === 'signature' || field === 'base64') return TEXT_LIMITS.signature;
  if (field === 'url' || field.endsWith('Url') || field.endsWith('Link')) return TEXT_LIMITS.url;
  if (NAMES.has(field) || field.endsWith('Key')) return TEXT_LIMITS.name;
  return TEXT_LIMITS.other;
}

/** Throws a 400 naming every text field of the body longer than its limit (the first 10). */
export function checkTextLimits(body: unknown): void {
  const errors: { path: string; message: string }[] = [];
  // Depth first with a stack of its own; the path is one array, cut back to each entry's depth as it is reached.
  const path: (string | number)[] = [];
  const stack: { value: unknown; key: string | number; depth: number }[] = [{ value: body, key: '', depth: 0 }];
  while (stack.length && errors.length < 10) {
    const { value, key, depth } = stack.pop()!;
    path.length = Math.max(0, depth - 1);
    if (depth > 0) path.push(key);
    if (typeof value === 'string') {
      const limit = limitOf(path);
      if (value.length > limit)
        errors.push({
          path: path.join('.') || '(body)',
          message: `Too long: ${value.length} characters, the limit is ${limit}`,
        });
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--)
        if (typeof value[i] === 'object' || typeof value[i] === 'string')
          stack.push({ value: value[i], key: i, depth: depth + 1 });
    } else if (value !== null && typeof value === 'object') {
      for (const k in value) {
        if (!Object.hasOwn(value, k)) continue;
        const v = (value as Record<string, unknown>)[k];
        if (typeof v === 'object' || typeof v === 'string') stack.push({ value: v, key: k, depth: depth + 1 });
      }
    }
  }
  if (errors.length)
    throw ApiError.badRequest(
      `${errors[0]!.path} is too long: ${errors[0]!.message.replace('Too long: ', '')} (docs/errors.md, limits)`,
      errors,
    );
}

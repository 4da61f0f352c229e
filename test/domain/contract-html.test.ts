/**
 * Placeholder tags read in one pass (issue 24 §11, docs/documents.md "Work limits"): a lazy regular expression once
 * searched ahead from every unclosed tag, so 150,000 of them kept the recipient page busy for over ten seconds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readableHtml } from '../../src/domain/contract-html.js';
import { replacePlaceholderTags } from '../../src/domain/placeholder-tags.js';
import { FUZZ_RUNS, FUZZ_SEED } from '../support/fuzz-kit.js';

describe('placeholder tags', () => {
  it('replaces 150,000 unclosed tags, each once', () => {
    const html = '<placeholder7 class="x">'.repeat(150_000);
    const out = readableHtml(html, []);
    expect(out.match(/<span class="placeholder empty">placeholder 7<\/span>/g)).toHaveLength(150_000);
  });

  it('replaces 150,000 tags without a closing ">" as text, untouched', () => {
    const html = '<sign1 '.repeat(150_000);
    expect(replacePlaceholderTags(html, () => 'X')).toBe(html);
  });

  it('pairs each tag with its own closing tag, as the regular expression did', () => {
    const seen: string[] = [];
    const out = replacePlaceholderTags(
      '<p>A <placeholder1>one</placeholder1>, <SIGN2/> and <date3>x</date3 > <email4>open',
      (name, id) => {
        seen.push(`${name}${id}`);
        return `[${name}${id}]`;
      },
    );
    expect(out).toBe('<p>A [placeholder1], [sign2] and [date3] [email4]open');
    expect(seen).toEqual(['placeholder1', 'sign2', 'date3', 'email4']);
  });

  it('agrees with the lazy regular expression on any mix of tags and text', () => {
    const part = fc.constantFrom(
      '<placeholder1>',
      '</placeholder1>',
      '<sign2 a="b">',
      '</sign2>',
      '<date1>',
      'text ',
      '<b>',
      '>',
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 30 }), (parts) => {
        const html = parts.join('');
        const regex = /<(placeholder|sign|date|fullname|email)(\d+)\b[^>]*>(?:[\s\S]*?<\/\1\2\s*>)?/gi;
        const expected = html.replace(regex, (_m, name: string, id: string) => `[${name.toLowerCase()}${id}]`);
        expect(replacePlaceholderTags(html, (name, id) => `[${name}${id}]`)).toBe(expected);
      }),
      { seed: FUZZ_SEED, numRuns: FUZZ_RUNS * 5 },
    );
  });
});

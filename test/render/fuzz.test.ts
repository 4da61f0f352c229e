/**
 * The HTML renderer under fast-check: generated contracts of any shape (nesting, tables of any width,
 * lists of any depth, long words, wide and unencodable characters, placeholder tags, stray closing tags) render to
 * a PDF and a DOCX, or are refused with a 422 naming a limit; nothing else is thrown.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/core/errors.js';
import { inProcessRenderer } from '../../src/render/renderer.js';
import { FUZZ_RUNS, FUZZ_SEED } from '../support/fuzz-kit.js';

const renderer = inProcessRenderer();
const TAGS = [
  'b',
  'i',
  'u',
  'p',
  'div',
  'span',
  'h1',
  'h3',
  'ul',
  'ol',
  'li',
  'table',
  'tr',
  'td',
  'th',
  'sign1',
  'placeholder2',
  'script',
];

const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.constantFrom('W', '😀', '中文', '\t', '&amp;', '&#x0;', ' ', 'a b  c'),
  fc.integer({ min: 1, max: 1500 }).map((n) => 'M'.repeat(n)),
);

const html: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    fc.constantFrom('<br>', '<hr>', '</td>', '</li>', '<td>', '<sign1/>', '<img src="x">'),
    fc
      .tuple(fc.constantFrom(...TAGS), fc.array(tie('node'), { maxLength: 5 }), fc.boolean())
      .map(([tag, children, closed]) => `<${tag}>${children.join('')}${closed ? `</${tag}>` : ''}`),
    fc
      .tuple(fc.integer({ min: 1, max: 50 }), text)
      .map(([columns, cell]) => `<table><tr>${`<td>${cell}</td>`.repeat(columns)}</tr></table>`),
    fc.tuple(fc.integer({ min: 1, max: 60 }), text).map(([depth, item]) => `${'<ul><li>'.repeat(depth)}${item}`),
  ),
})).node;

const fills = fc.constantFrom(
  new Map<string, string>(),
  new Map([
    ['sign1', 'Signed: Ada'],
    ['placeholder2', 'x'.repeat(5000)],
  ]),
);

async function rendersOrRefuses(job: () => Promise<Uint8Array>, magic: string): Promise<void> {
  try {
    const bytes = await job();
    expect(Buffer.from(bytes.subarray(0, magic.length)).toString('latin1')).toBe(magic);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(422);
  }
}

describe('any HTML', () => {
  it('renders to a PDF and a DOCX, or is refused with a 422', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(html, { maxLength: 6 }), fills, async (parts, map) => {
        const source = parts.join('');
        await rendersOrRefuses(
          () =>
            renderer.pdf({ title: source.slice(0, 40), at: 0, content: { kind: 'html', html: source, fills: map } }),
          '%PDF-',
        );
        await rendersOrRefuses(() => renderer.docx({ title: 'Fuzz', at: 0, html: source, fills: map }), 'PK');
      }),
      // Each run renders two files: a quarter of the usual count keeps the suite's time (FUZZ_RUNS for longer hunts).
      { seed: FUZZ_SEED, numRuns: Math.max(8, Math.round(FUZZ_RUNS / 4)) },
    );
  }, 120_000);
});

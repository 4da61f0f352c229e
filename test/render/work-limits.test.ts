/**
 * The renderer under hostile documents (docs/documents.md "Work limits"): every case once made the
 * process loop, overflow its stack or run for minutes. Each must now render (or be refused with a 422 naming the
 * limit), and the file must say what the HTML said. No timing is asserted: the figures are in npm run bench.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/core/errors.js';
import { limitNesting, MAX_HTML_DEPTH } from '../../src/core/html-nesting.js';
import { inProcessRenderer } from '../../src/render/renderer.js';
import { readDocx, readPdf } from '../support/documents-kit.js';

const renderer = inProcessRenderer();
const pdf = (html: string) =>
  renderer.pdf({ title: 'Hostile', at: 0, content: { kind: 'html', html, fills: new Map() } });
const docx = (html: string) => renderer.docx({ title: 'Hostile', at: 0, html, fills: new Map() });
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('one character wider than the line never stops the line breaker', () => {
  it.each([
    ['a table of 40 columns', `<table><tr>${'<td>abcdefgh</td>'.repeat(40)}</tr></table>`, 'abcdefgh', 40],
    ['a table of 300 columns', `<table><tr>${'<td>WWW</td>'.repeat(300)}</tr></table>`, 'WWW', 300],
    ['lists nested 30 deep', `${'<ul><li>deep item '.repeat(30)}${'</li></ul>'.repeat(30)}`, 'deepitem', 30],
  ])('%s renders to PDF and DOCX with all its text', async (_name, html, text, times) => {
    const pages = await readPdf(await pdf(html));
    const letters = pages
      .map((p) => p.items.map((i) => i.text).join(''))
      .join('')
      .replace(/Page \d+ of \d+/g, '')
      .replace(/[\s•–]/g, '');
    expect(letters).toBe(text.repeat(times));
    expect((await readDocx(await docx(html))).xml.split(text.replace('deepitem', 'deep item')).length - 1).toBe(times);
  });

  it('breaks a 20,000-character word into lines, losing no character', async () => {
    const word = 'abcdefghij'.repeat(2000);
    const pages = await readPdf(await pdf(`<p>${word}</p>`));
    const text = pages.map((p) => p.items.map((i) => i.text).join('')).join('');
    expect(text.replace(/Page \d+ of \d+/g, '')).toBe(word);
    expect(pages.length).toBeGreaterThan(1);
  });
});

describe('nesting and size are bounded', () => {
  it.each([
    ['100,000 nested <b>', `${'<b>'.repeat(100_000)}deep text${'</b>'.repeat(100_000)}`],
    ['100,000 nested <div>', `${'<div>'.repeat(100_000)}deep text${'</div>'.repeat(100_000)}`],
    ['10,000 nested tables', `${'<table><tr><td>'.repeat(10_000)}deep text${'</td></tr></table>'.repeat(10_000)}`],
    ['200,000 unclosed <span>', `${'<span>'.repeat(200_000)}deep text`],
  ])('%s: rendered, the deep text kept', async (_name, html) => {
    expect((await readPdf(await pdf(html))).map((p) => p.text).join(' ')).toContain('deep text');
    expect((await readDocx(await docx(html))).paragraphs.join(' ')).toContain('deep text');
  });

  it('limitNesting keeps at most MAX_HTML_DEPTH open elements and every character of text', () => {
    const limited = limitNesting(`${'<i>'.repeat(5000)}x${'</i>'.repeat(5000)}<p>after</p>`);
    expect(limited.match(/<i>/g)).toHaveLength(MAX_HTML_DEPTH);
    expect(limited.match(/<\/i>/g)).toHaveLength(MAX_HTML_DEPTH);
    expect(limited).toContain('x');
    expect(limited.endsWith('<p>after</p>')).toBe(true);
    // Implied closes: 1,000 unclosed paragraphs are siblings, not nesting.
    const paragraphs = '<p>one'.repeat(1000);
    expect(limitNesting(paragraphs)).toBe(paragraphs);
  });

  it('refuses a PDF of more than 500 pages with a 422 naming the limit', async () => {
    const error = await refusal(pdf('line<br>'.repeat(30_000)));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(422);
    expect((error as ApiError).message).toMatch(/more than 500 pages/);
  });

  it('refuses a DOCX of 200,000 line breaks or 100,000 cells with a 422 naming the limit', async () => {
    for (const html of [
      'x<br>'.repeat(200_000),
      `<table>${`<tr>${'<td>c</td>'.repeat(10)}</tr>`.repeat(10_000)}</table>`,
    ]) {
      const error = await refusal(docx(html));
      expect((error as ApiError).status).toBe(422);
      expect((error as ApiError).message).toMatch(/limit of 20000/);
    }
  });

  it('draws a table of 2,000 rows (one Math.max over every row overflowed the stack at 150,000)', async () => {
    const pages = await readPdf(await pdf(`<table>${'<tr><td>cell</td><td>2</td></tr>'.repeat(2000)}</table>`));
    expect(pages.length).toBeGreaterThan(10);
  });
});

describe('a table row of 100,000 empty cells', () => {
  it('is refused in the PDF with a 422 naming the column limit, and still read as a table by the DOCX limit', async () => {
    const html = `<table><tr>${'<td></td>'.repeat(100_000)}</tr></table>`;
    const error = await refusal(pdf(html));
    expect((error as ApiError).status).toBe(422);
    expect((error as ApiError).message).toMatch(/table row of 100000 cells, more than the limit of 1000 columns/);
    expect(((await refusal(docx(html))) as ApiError).status).toBe(422);
  });

  it('draws a table of 1,000 columns', async () => {
    const pages = await readPdf(await pdf(`<table><tr>${'<td>x</td>'.repeat(1000)}</tr></table>`));
    expect(pages).toHaveLength(1);
  });
});

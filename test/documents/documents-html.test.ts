/** HTML contracts as documents: rendered to PDF and DOCX, each read back with a real reader (split from documents.test.ts). */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { DEMO, FROZEN, type TestSandbox, testSandbox } from '../support/helpers.js';
import { download, readDocx, readPdf } from '../support/documents-kit.js';
import { API, Q, pdfContractCalls } from '../support/pdf-contract.js';

let t: TestSandbox;
beforeAll(async () => {
  t = await testSandbox(FROZEN);
});
afterAll(() => t.close());

const { pdfContract, send } = pdfContractCalls(() => t);

describe('an HTML contract as a document', () => {
  const html = [
    '<h1>Service agreement</h1>',
    '<p>Between <b>Acme Ltd</b> and <i>the customer</i>, for <placeholder1>price</placeholder1> a month.</p>',
    '<h2>Terms</h2>',
    '<ul><li>First term</li><li>Second term with <strong>bold</strong></li></ul>',
    '<ol><li>Numbered one</li><li>Numbered two</li></ol>',
    '<table><tr><th>Item</th><th>Cost</th></tr><tr><td>Hosting</td><td>10 EUR</td></tr></table>',
    ...Array.from(
      { length: 120 },
      (_, i) =>
        `<p>Clause ${i + 1}: the parties agree to the terms set out in this paragraph, which is long enough to wrap onto a second line of the page.</p>`,
    ),
    '<p>Signed: <fullname2>signer</fullname2> on <date2>date</date2></p>',
  ].join('');
  let contractKey: string;

  beforeAll(async () => {
    const res = await t.post(
      '/api/contract',
      { data: { action: 'create', clientKey: DEMO.clientKey, contract: { name: 'Service agreement', value: html } } },
      API,
    );
    contractKey = res.body.contract.contractKey;
    const p = await t.post(
      '/api/placeholder',
      {
        data: {
          action: 'create',
          clientKey: DEMO.clientKey,
          contractKey,
          placeholder: { name: 'price', value: '1,200 EUR' },
        },
      },
      API,
    );
    expect(p.body.placeholder.id).toBe('1');
  });

  it('renders to a paginated A4 PDF with headings, lists, table and the placeholder values filled', async () => {
    const file = await download(t, `/api/download_pdf?contractKey=${contractKey}&${Q}`, API);
    expect(file).toMatchObject({ status: 200, type: 'application/pdf' });
    const pages = await readPdf(file.bytes);
    expect(pages.length).toBeGreaterThan(3);
    for (const p of pages) expect([Math.round(p.width), Math.round(p.height)]).toEqual([595, 842]);
    const all = pages.map((p) => p.text).join('\n');
    expect(pages[0]!.text).toContain('Service agreement');
    expect(all).toContain('1,200 EUR a month');
    expect(all).not.toContain('price a month');
    expect(all).toContain('Hosting');
    expect(all).toContain('Numbered two');
    expect(all).toContain('Clause 120');
    expect(pages.at(-1)!.text).toContain(`Page ${pages.length} of ${pages.length}`);
    // No signer yet: the tag keeps its own text.
    expect(all).toContain('Signed: signer on date');
  });

  it('keeps bold and italic: the runs use the bold and oblique standard fonts', async () => {
    const file = await download(t, `/api/download_pdf?contractKey=${contractKey}&${Q}`, API);
    const doc = await PDFDocument.load(file.bytes);
    const fonts = doc.context
      .enumerateIndirectObjects()
      .map(([, o]) => o.toString())
      .filter((s) => s.includes('/BaseFont'))
      .join(' ');
    expect(fonts).toContain('/Helvetica-Bold');
    expect(fonts).toContain('/Helvetica-Oblique');
  });

  it('downloads as a DOCX whose XML carries the filled content, headings, lists and table', async () => {
    const file = await download(t, `/api/download_docx?contractKey=${contractKey}&${Q}`, API);
    expect(file.status).toBe(200);
    expect(file.type).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    const { xml, paragraphs } = await readDocx(file.bytes);
    expect(paragraphs[0]).toBe('Service agreement');
    expect(paragraphs).toContain('Between Acme Ltd and the customer, for 1,200 EUR a month.');
    expect(xml).toContain('<w:pStyle w:val="Heading1"/>');
    expect(xml).toMatch(/<w:b\/>[\s\S]*?<w:t xml:space="preserve">Acme Ltd<\/w:t>/);
    expect(xml).toContain('<w:tbl>');
    expect(paragraphs).toContain('Hosting');
    expect(paragraphs).toContain('Numbered two');
    expect(xml).toContain('<w:numPr>');
  });

  it("fills the signer's tags once signed, and appends the audit trail", async () => {
    const [grace] = await send(contractKey, [{ fullname: 'Grace Hopper', email: 'grace@example.com' }]);
    // Placeholder ids run in order: price is 1; the signer's four special placeholders share the next id, 2, which
    // is the N of its <dateN>, <fullnameN>, <emailN> and <signN> tags (docs/compatibility.md).
    const state = await t.control(`/contracts/${contractKey}`);
    const ids = Object.fromEntries(
      state.body.placeholders.map((p: { placeholderKey: string; id: string }) => [p.placeholderKey, p.id]),
    );
    expect([1, 2, 3, 4].map((code) => ids[`${grace}_${code}`])).toEqual(['2', '2', '2', '2']);
    await t.control(`/recipients/${grace}/sign`, {});
    const pages = await readPdf((await download(t, `/api/download_pdf?contractKey=${contractKey}&${Q}`, API)).bytes);
    expect(pages.map((p) => p.text).join('\n')).toMatch(/Signed: Grace Hopper on 2026-03-01 \d\d:00:00 UTC/);
    expect(pages.at(-1)!.text).toContain('Audit trail');
    const docx = await readDocx((await download(t, `/api/download_docx?contractKey=${contractKey}&${Q}`, API)).bytes);
    expect(docx.paragraphs.join('\n')).toMatch(/Signed: Grace Hopper on 2026-03-01 \d\d:00:00 UTC/);
  });

  it('a PDF contract has no DOCX: 400', async () => {
    const key = await pdfContract();
    const res = await download(t, `/api/download_docx?contractKey=${key}&${Q}`, API);
    expect(res.status).toBe(400);
    expect(res.json.message).toContain('DOCX is only offered for HTML contracts');
  });
});

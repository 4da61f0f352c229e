/**
 * Documents: PDF contracts (create, upload, place, send, sign, download with the audit trail). HTML contracts are
 * in documents-html.test.ts, templates and copies in documents-copy.test.ts. Every produced file is read back
 * with a real reader (pdf.js, JSZip + the DOCX XML).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { createHash } from 'node:crypto';
import { DEMO, FROZEN, type TestSandbox, testSandbox } from '../support/helpers.js';
import { documentPath, download, makePdf, readPdf, upload } from '../support/documents-kit.js';
import { API, PNG_SIGNATURE, Q, box, pdfContractCalls } from '../support/pdf-contract.js';

let t: TestSandbox;
beforeAll(async () => {
  t = await testSandbox(FROZEN);
});
afterAll(() => t.close());

const { pdfContract, send, place } = pdfContractCalls(() => t);

describe('a PDF contract from upload to the signed PDF with its audit trail', () => {
  let contractKey: string;
  let grace: string;
  let alan: string;

  it('is created with contractType "pdf" and no value, and takes an uploaded PDF', async () => {
    contractKey = await pdfContract('Office lease');
    const bytes = await makePdf(3);
    const res = await upload(t, `contractKey=${contractKey}&${Q}`, bytes, API);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      code: '201',
      message: 'PDF uploaded',
      contract: {
        contractKey,
        contractType: 'pdf',
        pages: 3,
        bytes: bytes.byteLength,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      },
    });
    expect(res.body.contract.value).toBe(`http://localhost${documentPath('contract', contractKey, bytes)}`);
  });

  it('serves the uploaded file as it was uploaded at the URL its value names, with no credentials', async () => {
    const state = await t.control(`/contracts/${contractKey}`);
    const file = await download(t, state.body.value);
    expect(file.status).toBe(200);
    expect(file.type).toBe('application/pdf');
    expect((await readPdf(file.bytes)).map((p) => p.text)).toEqual([
      'Page 1 of the uploaded agreement',
      'Page 2 of the uploaded agreement',
      'Page 3 of the uploaded agreement',
    ]);
  });

  it("places the signers' fields in their boxes, and the unsigned download shows the empty boxes", async () => {
    const keys = await send(contractKey, [
      { fullname: 'Grace Hopper', email: 'grace@example.com' },
      { fullname: 'Alan Turing', email: 'alan@example.com' },
    ]);
    [grace, alan] = [keys[0]!, keys[1]!];
    const res = await place(contractKey, [
      { placeholderKey: `${grace}_4`, specialType: 4, insertion: [box(1, 100, 400)] },
      { placeholderKey: `${grace}_2`, specialType: 2, insertion: [box(1, 100, 470, 300, 30)] },
      { placeholderKey: `${grace}_1`, specialType: 1, insertion: [box(1, 500, 470, 300, 30)] },
      { placeholderKey: `${alan}_4`, specialType: 4, insertion: [box(2, 100, 400)] },
      { placeholderKey: `${alan}_2`, specialType: 2, insertion: [box(2, 100, 470, 300, 30)] },
      { placeholderKey: `${alan}_3`, specialType: 3, insertion: [box(2, 500, 470, 400, 30)] },
    ]);
    expect(res.status).toBe(201);
    const file = await download(t, `/api/download_pdf?contractKey=${contractKey}&${Q}`, API);
    expect(file.status).toBe(200);
    const pages = await readPdf(file.bytes);
    expect(pages).toHaveLength(3);
    // An unsigned box says what it is for, and no name yet: the document must not read as signed.
    expect(pages[1]!.text).toContain('Signature');
    expect(pages[1]!.text).toContain('Full name');
    expect(pages[1]!.text).not.toContain('Grace Hopper');
    expect(pages[2]!.text).not.toContain('Alan Turing');
    expect(pages[1]!.text).not.toContain('Audit trail');
  });

  it("draws each signer's name, email, date and signature in its box once signed, on the right page", async () => {
    expect((await t.control(`/recipients/${grace}/sign`, { signature: PNG_SIGNATURE })).status).toBe(200);
    await t.control('/clock/advance', { by: '1h' });
    expect((await t.control(`/recipients/${alan}/sign`, {})).status).toBe(200);
    const file = await download(t, `/api/download_pdf?contractKey=${contractKey}&${Q}`, API);
    const pages = await readPdf(file.bytes);
    const unit = pages[1]!.width / 1000;
    const near = (page: number, text: string, x: number, y: number, h: number) => {
      // Some text item inside its box: from its left edge, baseline between its top and bottom (API units → points).
      const inside = pages[page]!.items.filter((i) => i.text === text).filter(
        (i) => i.x >= x * unit && i.x < x * unit + 20 && i.top > y * unit && i.top <= (y + h) * unit,
      );
      expect(inside, `"${text}" in box ${x},${y} on page ${page}: ${JSON.stringify(pages[page]!.items)}`).toHaveLength(
        1,
      );
    };
    near(1, 'Grace Hopper', 100, 470, 30);
    near(1, '2026-03-01 09:00:00 UTC', 500, 470, 30);
    near(2, 'Alan Turing', 100, 400, 50); // the generated (SVG) signature is drawn as the name, in its box
    near(2, 'Alan Turing', 100, 470, 30);
    near(2, 'alan@example.com', 500, 470, 30);
    // Grace's PNG signature is an image: pdf-lib put one image on page 2.
    const doc = await PDFDocument.load(file.bytes);
    const xobjects = doc.getPages()[1]!.node.Resources()!.toString();
    expect(xobjects).toMatch(/XObject/);
  });

  it('appends an audit trail page once fully signed: key, name, the hash of the pages before it, every step in order', async () => {
    const file = await download(t, `/api/download_pdf?contractKey=${contractKey}&${Q}`, API);
    const pages = await readPdf(file.bytes);
    expect(pages).toHaveLength(4);
    const audit = pages[3]!;
    expect(audit.text).toContain('Audit trail');
    expect(audit.text).toContain(contractKey);
    expect(audit.text).toContain('Office lease');
    // The hash is of this file without its audit page: cut the audit page off with pdf-lib and compare.
    const sha = /Document SHA-256 ([0-9a-f]{64})/.exec(audit.text)?.[1];
    expect(sha).toMatch(/^[0-9a-f]{64}$/);
    const header = audit.items.find((i) => i.text === 'Time (UTC)')!;
    const events = audit.items
      .filter((i) => i.top > header.top && /^(Created|Sent|Seen|Signed|Fully signed)$/.test(i.text))
      .sort((a, b) => a.top - b.top)
      .map((i) => i.text);
    expect(events).toEqual(['Created', 'Sent', 'Seen', 'Signed', 'Seen', 'Signed', 'Fully signed']);
    const rows = audit.items
      .filter((i) => i.text === 'Signed')
      .map((s) => audit.items.filter((i) => Math.abs(i.top - s.top) < 1).map((i) => i.text));
    expect(rows[0]).toEqual(['2026-03-01 09:00:00', 'Signed', 'Grace Hopper', 'grace@example.com', '127.0.0.1']);
    expect(rows[1]).toEqual(['2026-03-01 10:00:00', 'Signed', 'Alan Turing', 'alan@example.com', '127.0.0.1']);
  });

  it('makes the same bytes on every download of the same state; the hash certifies the pages, not the file with its audit page', async () => {
    const a = await download(t, `/api/download_pdf?contractKey=${contractKey}&${Q}`, API);
    const b = await download(t, `/api/download_pdf?contractKey=${contractKey}&${Q}`, API);
    expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
    const pages = await readPdf(a.bytes);
    const sha = /Document SHA-256 ([0-9a-f]{64})/.exec(pages[3]!.text)![1];
    expect(sha).not.toBe(createHash('sha256').update(a.bytes).digest('hex'));
  });

  it('refuses a new upload once sent, and changes nothing', async () => {
    const res = await upload(t, `contractKey=${contractKey}&${Q}`, await makePdf(1), API);
    expect(res).toMatchObject({ status: 409, body: { code: 409 } });
    expect(res.body.message).toContain('has been sent');
  });
});

describe('placements on a PDF contract are checked against the real pages', () => {
  let contractKey: string;
  let signer: string;
  beforeAll(async () => {
    contractKey = await pdfContract();
    // A landscape page: 842 × 595 points, so the page is 1000 × 706.7 API units.
    expect((await upload(t, `contractKey=${contractKey}&${Q}`, await makePdf(2, [842, 595]), API)).status).toBe(201);
    signer = (await send(contractKey, [{ fullname: 'Ada Lovelace', email: 'ada@example.com' }]))[0]!;
  });

  it.each([
    ['a page that does not exist', box(2, 0, 0), 'insertion.0.pageId', 'the PDF has 2 pages, numbered 0 to 1'],
    ['a negative page', box(-1, 0, 0), 'insertion.0.pageId', 'No page -1'],
    ['a box past the right edge', box(0, 800, 0, 300, 50), 'insertion.0.width', "past the page's right edge at 1000"],
    [
      'a box past the bottom of a landscape page',
      box(0, 0, 680, 100, 50),
      'insertion.0.height',
      'past the bottom edge of page 0 at 706.7',
    ],
    ['a negative position', box(0, -5, 0), 'insertion.0.positionX', 'non-negative'],
    ['a zero height', box(0, 0, 0, 100, 0), 'insertion.0.height', 'positive'],
    [
      'a position that is not a number',
      { ...box(0, 0, 0), positionY: 'top' },
      'insertion.0.positionY',
      'non-negative number',
    ],
    [
      'a box without its page',
      { id: '1', positionX: '1', positionY: '1', width: '10', height: '10' },
      'insertion.0.pageId',
      'Required',
    ],
  ])('refuses %s with a 400 naming the field', async (_name, insertion, field, message) => {
    const res = await place(contractKey, [{ placeholderKey: `${signer}_4`, specialType: 4, insertion: [insertion] }]);
    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual({
      path: `data.placeholders.0.${field}`,
      message: expect.stringContaining(message),
    });
  });

  it('accepts a box that fills the page exactly, and a later update of one side only', async () => {
    expect(
      (
        await place(contractKey, [
          { placeholderKey: `${signer}_4`, specialType: 4, insertion: [box(1, 0, 0, 1000, 706)] },
        ])
      ).status,
    ).toBe(201);
    const wider = await place(contractKey, [
      { placeholderKey: `${signer}_4`, specialType: 4, insertion: [{ id: '1', positionX: '10' }] },
    ]);
    expect(wider.status).toBe(400);
    expect(wider.body.errors[0].path).toBe('data.placeholders.0.insertion.0.width');
  });

  it('refuses placements on a PDF contract that has no PDF yet (409)', async () => {
    const key = await pdfContract();
    const [r] = await send(key, [{ fullname: 'B', email: 'b@example.com' }]);
    const res = await place(key, [{ placeholderKey: `${r}_4`, specialType: 4, insertion: [box(0, 0, 0)] }]);
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('upload it with POST /api/upload_pdf');
  });
});

describe('ordinary placeholders placed on a PDF contract', () => {
  it('draws the value in its box', async () => {
    const key = await pdfContract('Basic fields');
    await upload(t, `contractKey=${key}&${Q}`, await makePdf(1), API);
    const made = await t.post(
      '/api/placeholder',
      {
        data: {
          action: 'create',
          clientKey: DEMO.clientKey,
          contractKey: key,
          placeholder: { name: 'rent', value: '950 EUR' },
        },
      },
      API,
    );
    // The pdfbasic placement (placeholder update with insertion) stores the same insertion items as special ones.
    const store = t.sandbox.services.store;
    store.placeholders.update(made.body.placeholder.placeholderKey, {
      insertion: [{ id: '1', pageId: '0', positionX: '600', positionY: '100', width: '300', height: '40' }],
    });
    const pages = await readPdf((await download(t, `/api/download_pdf?contractKey=${key}&${Q}`, API)).bytes);
    const unit = pages[0]!.width / 1000;
    const item = pages[0]!.items.find((i) => i.text === '950 EUR');
    expect(item).toBeDefined();
    expect(item!.x).toBeGreaterThanOrEqual(600 * unit);
    expect(item!.top).toBeGreaterThan(100 * unit);
    expect(item!.top).toBeLessThanOrEqual(140 * unit);
  });
});

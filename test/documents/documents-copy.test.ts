/** Templates and copies keep the PDF of a PDF contract (split from documents.test.ts). */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, FROZEN, type TestSandbox, testSandbox } from '../support/helpers.js';
import { documentPath, download, makePdf, readPdf, upload } from '../support/documents-kit.js';
import { API, Q, pdfContractCalls } from '../support/pdf-contract.js';

let t: TestSandbox;
beforeAll(async () => {
  t = await testSandbox(FROZEN);
});
afterAll(() => t.close());

const { pdfContract } = pdfContractCalls(() => t);

describe('templates and copies keep the PDF', () => {
  it('converting a PDF contract gives a PDF template with the same file, and its contracts are PDF contracts', async () => {
    const key = await pdfContract('Source');
    const bytes = await makePdf(2);
    await upload(t, `contractKey=${key}&${Q}`, bytes, API);
    const conv = await t.post(
      '/api/template',
      { data: { action: 'convert', clientKey: DEMO.clientKey, template: { name: 'From PDF', contractKey: key } } },
      API,
    );
    expect(conv.status).toBe(201);
    const templateKey = conv.body.template.templateKey;
    const read = await t.post(
      '/api/template',
      { data: { action: 'read', clientKey: DEMO.clientKey, template: { templateKey } } },
      API,
    );
    expect(read.body.template.value).toBe(`http://localhost${documentPath('template', templateKey, bytes)}`);
    const file = await download(t, read.body.template.value);
    expect(Buffer.from(file.bytes).equals(Buffer.from(bytes))).toBe(true);

    const dup = await t.post(
      '/api/template',
      { data: { action: 'duplicate', clientKey: DEMO.clientKey, template: { templateKey } } },
      API,
    );
    const copyKey = dup.body.template.templateKey;
    expect((await download(t, `/api/template_pdf/${copyKey}?${Q}`, API)).status).toBe(200);

    const made = await t.post(
      '/api/contract',
      {
        data: {
          action: 'create',
          clientKey: DEMO.clientKey,
          contract: { name: 'From template', templateKey: copyKey },
        },
      },
      API,
    );
    const contractKey = made.body.contract.contractKey;
    const pdf = await download(t, `/api/download_pdf?contractKey=${contractKey}&${Q}`, API);
    expect((await readPdf(pdf.bytes)).map((p) => p.text)).toEqual([
      'Page 1 of the uploaded agreement',
      'Page 2 of the uploaded agreement',
    ]);
    expect((await t.control(`/contracts/${contractKey}`)).body.value).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1:\\d+${documentPath('contract', contractKey, bytes)}$`),
    );
  });

  it('duplicating a PDF contract keeps its file: the copy reads as a PDF contract and serves the same bytes', async () => {
    const key = await pdfContract('Original');
    const bytes = await makePdf(2);
    await upload(t, `contractKey=${key}&${Q}`, bytes, API);
    const dup = await t.post(
      '/api/contract',
      { data: { action: 'duplicate', clientKey: DEMO.clientKey, contract: { contractKey: key } } },
      API,
    );
    expect(dup.status).toBe(201);
    const copyKey = dup.body.contract.contractKey as string;
    const read = await t.post(
      '/api/contract',
      { data: { action: 'read', clientKey: DEMO.clientKey, contract: { contractKey: copyKey } } },
      API,
    );
    expect(read.body.contract).toMatchObject({
      contractType: 7,
      value: `http://localhost${documentPath('contract', copyKey, bytes)}`,
    });
    const file = await download(t, read.body.contract.value);
    expect(Buffer.from(file.bytes).equals(Buffer.from(bytes))).toBe(true);
  });

  it('uploads to a template created with an empty value (templateKey=)', async () => {
    const made = await t.post(
      '/api/template',
      { data: { action: 'create', clientKey: DEMO.clientKey, template: { name: 'PDF template', value: '' } } },
      API,
    );
    const templateKey = made.body.template.templateKey;
    const res = await upload(t, `templateKey=${templateKey}&${Q}`, await makePdf(1), API);
    expect(res).toMatchObject({ status: 201, body: { template: { templateKey, pages: 1 } } });
  });
});

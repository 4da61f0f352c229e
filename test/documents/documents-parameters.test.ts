/**
 * How the document endpoints read their keys (docs/documents.md): from the query string (the first of each name; an
 * empty one is absent) and the path (which wins over a query parameter of the same name); a missing one is named with
 * an example URL, once the caller's credentials and client have passed; an upload's contract is looked up before its
 * body is read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, FROZEN, type TestSandbox, testSandbox } from '../support/helpers.js';
import { documentPath, download, makePdf, upload } from '../support/documents-kit.js';
import { API, Q, pdfContractCalls } from '../support/pdf-contract.js';

let t: TestSandbox;
let contractKey: string;
let pdf: Uint8Array;
beforeAll(async () => {
  t = await testSandbox(FROZEN);
  contractKey = await pdfContractCalls(() => t).pdfContract('Parameters');
  pdf = await makePdf(1);
  expect((await upload(t, `contractKey=${contractKey}&${Q}`, pdf, API)).status).toBe(201);
});
afterAll(() => t.close());

describe('a document endpoint missing a key', () => {
  it.each([
    ['absent', `/api/download_pdf?${Q}`],
    ['empty', `/api/download_pdf?contractKey=&${Q}`],
  ])('answers 400 naming it with an example URL (%s)', async (_name, path) => {
    const res = await download(t, path, API);
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      code: 400,
      message:
        'Query parameter contractKey is required, e.g. /api/download_pdf?contractKey=<KEY>&clientKey=<CLIENT_KEY>',
      errors: [{ path: 'contractKey', message: 'Required' }],
    });
  });

  it('a public one too: the share link of recipient_download_pdf', async () => {
    const res = await download(t, '/api/recipient_download_pdf?inline=1');
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(
      'Query parameter shareLink is required, e.g. /api/recipient_download_pdf?shareLink=<KEY>&clientKey=<CLIENT_KEY>',
    );
  });

  it('is answered after the credentials and the client: 401 without credentials, 400 naming clientKey without it', async () => {
    expect((await download(t, '/api/download_docx')).status).toBe(401);
    const res = await download(t, '/api/download_docx', API);
    expect(res.status).toBe(400);
    expect(res.json.message).toBe('clientKey is required with the API-key header');
    expect((await download(t, `/api/download_pdf?clientKey=nobody`, API)).status).toBe(404);
  });
});

describe('a document endpoint reading its keys', () => {
  it('takes the first of a repeated query parameter', async () => {
    const first = await download(t, `/api/download_pdf?contractKey=${contractKey}&contractKey=nope&${Q}`, API);
    expect(first.status).toBe(200);
    const second = await download(t, `/api/download_pdf?contractKey=nope&contractKey=${contractKey}&${Q}`, API);
    expect(second.status).toBe(404);
  });

  it("takes a path's key over a query parameter of the same name", async () => {
    const res = await download(t, `/api/contract_pdf/${contractKey}?contractKey=nope&${Q}`, API);
    expect(res.status).toBe(200);
    const url = `${documentPath('contract', contractKey, pdf)}?contractKey=nope&file=nope.pdf`;
    expect((await download(t, url)).status).toBe(200);
  });

  it('looks up the contract of an upload before reading its body: 404 for an unknown one, whatever the body', async () => {
    const res = await t.request(`/api/contract_email_sign_pdf?contractKey=nope&${Q}`, {
      method: 'POST',
      headers: { 'x-service-key': DEMO.apiKey, 'content-type': 'text/plain' },
      body: 'not a form',
    });
    expect(res.status).toBe(404);
    const known = await t.request(`/api/contract_email_sign_pdf?contractKey=${contractKey}&${Q}`, {
      method: 'POST',
      headers: { 'x-service-key': DEMO.apiKey, 'content-type': 'text/plain' },
      body: 'not a form',
    });
    expect(known.status).toBe(415);
  });

  it('answers another method with the one 405 naming the methods of its path', async () => {
    const res = await t.request(`/api/contract_pdf/${contractKey}?${Q}`, {
      method: 'DELETE',
      headers: { 'x-service-key': DEMO.apiKey },
    });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
  });
});

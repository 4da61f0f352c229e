/**
 * What a signed document looks like (docs/documents.md "What the downloads contain"): a drawn
 * signature drawn in an HTML contract, the audit trail on the document's page size, footers counting every page of
 * the file, and unsigned boxes that say what they are for without a name.
 */
import { PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeholdersOf } from '../../src/domain/placeholders.js';
import { systemContext } from '../../src/domain/context.js';
import { DEMO, FROZEN, type TestSandbox, testSandbox } from '../support/helpers.js';
import { download, makePdf, readPdf, upload } from '../support/documents-kit.js';

const API = { apiKey: DEMO.apiKey } as const;
const Q = `clientKey=${DEMO.clientKey}`;
const PNG_SIGNATURE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

let t: TestSandbox;
beforeAll(async () => {
  t = await testSandbox(FROZEN);
});
afterAll(() => t.close());

async function create(contract: Record<string, unknown>): Promise<string> {
  const res = await t.post('/api/contract', { data: { action: 'create', clientKey: DEMO.clientKey, contract } }, API);
  expect(res.status).toBe(201);
  return res.body.contract.contractKey;
}

async function sendTo(contractKey: string): Promise<{ recipientKey: string; tag: (type: number) => string }> {
  await t.post(
    '/api/recipient',
    {
      data: {
        action: 'send',
        clientKey: DEMO.clientKey,
        contractKey,
        recipients: [{ fullname: 'Alan Turing', email: 'alan@example.com', action: 'sign', position: 1 }],
      },
    },
    API,
  );
  const list = await t.post(
    '/api/recipient',
    { data: { action: 'list', clientKey: DEMO.clientKey, contractKey } },
    API,
  );
  const recipientKey = list.body.recipients[0].recipientKey;
  const specials = placeholdersOf(systemContext(t.sandbox.services, 'api'), { contractKey }).filter(
    (p) => p.recipientKey === recipientKey,
  );
  const names: Record<number, string> = { 1: 'date', 2: 'fullname', 3: 'email', 4: 'sign' };
  return { recipientKey, tag: (type) => `${names[type]}${specials.find((p) => p.specialType === type)!.id}` };
}

/** The images drawn on a page: its XObjects of subtype Image. */
async function imagesOn(bytes: Uint8Array, pageIndex: number): Promise<number> {
  const doc = await PDFDocument.load(bytes);
  const xobjects = doc.getPage(pageIndex).node.Resources()?.lookupMaybe(PDFName.of('XObject'), PDFDict);
  if (!xobjects) return 0;
  return xobjects
    .keys()
    .filter((k) => (xobjects.lookup(k) as { dict?: PDFDict }).dict?.get(PDFName.of('Subtype')) === PDFName.of('Image'))
    .length;
}

describe('an HTML contract signed by drawing', () => {
  it('prints the drawn image where <signN> stands, not "Signed: <name>"; the name shows once signed', async () => {
    // The first recipient's four special placeholders share the id 1 (docs/pages.md).
    const key = await create({
      name: 'Drawn',
      value: '<p>Signature: <sign1>(to sign)</sign1></p><p>Name: <fullname1>(full name)</fullname1></p>',
    });
    const { recipientKey, tag } = await sendTo(key);
    expect([tag(4), tag(2)]).toEqual(['sign1', 'fullname1']);
    const unsigned = await download(t, `/api/download_pdf?contractKey=${key}&${Q}`, API);
    const before = (await readPdf(unsigned.bytes))[0]!.text;
    expect(before).toContain('(to sign)');
    expect(before).toContain('(full name)');
    expect(before).not.toContain('Alan Turing');
    expect((await t.control(`/recipients/${recipientKey}/sign`, { signature: PNG_SIGNATURE })).status).toBe(200);
    const signed = await download(t, `/api/download_pdf?contractKey=${key}&${Q}`, API);
    const pages = await readPdf(signed.bytes);
    expect(pages[0]!.text).not.toContain('Signed:');
    expect(pages[0]!.text).not.toContain('(to sign)');
    expect(pages[0]!.text).toContain('Name: Alan Turing');
    expect(await imagesOn(signed.bytes, 0)).toBe(1);
  });
});

describe('page sizes and numbers', () => {
  it('the audit trail of a Letter document is on Letter pages', async () => {
    const key = await create({ name: 'Letter', contractType: 'pdf' });
    expect((await upload(t, `contractKey=${key}&${Q}`, await makePdf(1, [612, 792]), API)).status).toBe(201);
    const { recipientKey } = await sendTo(key);
    expect((await t.control(`/recipients/${recipientKey}/sign`, {})).status).toBe(200);
    const pages = await readPdf((await download(t, `/api/download_pdf?contractKey=${key}&${Q}`, API)).bytes);
    expect(pages).toHaveLength(2);
    expect(pages[1]!.text).toContain('Audit trail');
    expect([pages[1]!.width, pages[1]!.height]).toEqual([612, 792]);
    expect(pages[1]!.text).toContain('Page 2 of 2');
  });

  it('footers count every page of the file, the audit trail included', async () => {
    const key = await create({ name: 'Short', value: '<p>One page of terms.</p>' });
    const { recipientKey } = await sendTo(key);
    expect((await t.control(`/recipients/${recipientKey}/sign`, {})).status).toBe(200);
    const pages = await readPdf((await download(t, `/api/download_pdf?contractKey=${key}&${Q}`, API)).bytes);
    expect(pages).toHaveLength(2);
    expect(pages[0]!.text).toContain('Page 1 of 2');
    expect(pages[1]!.text).toContain('Page 2 of 2');
    expect(pages.map((p) => p.text).join(' ')).not.toContain('of 1');
  });
});

/**
 * Helpers of the document tests: PDFs to upload (made with pdf-lib), the multipart upload as real clients send
 * it, and a real reader of what comes back: pdfjs-dist for text with positions and page sizes, JSZip for DOCX.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import JSZip from 'jszip';
import type { Answer, TestSandbox } from './helpers.js';

const require = createRequire(import.meta.url);
const PDFJS_ROOT = dirname(require.resolve('pdfjs-dist/package.json'));

/** A plain PDF of `pages` pages of `size` points, each saying "Page N". */
export async function makePdf(pages = 1, size: [number, number] = [595.28, 841.89]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage(size);
    page.drawText(`Page ${i + 1} of the uploaded agreement`, { x: 40, y: size[1] - 60, size: 14, font });
  }
  return doc.save();
}

/** The first `count` bytes of an answer's body, as text: '%PDF-' opens a PDF, 'PK' a DOCX (a zip). */
export async function firstBytes(res: Response, count: number): Promise<string> {
  return Buffer.from(await res.arrayBuffer())
    .subarray(0, count)
    .toString();
}

export type Credentials = { bearer: string } | { apiKey: string };

function authHeaders(auth: Credentials | undefined): Record<string, string> {
  if (!auth) return {};
  return 'bearer' in auth ? { authorization: `Bearer ${auth.bearer}` } : { 'x-service-key': auth.apiKey };
}

/** POST /api/upload_pdf as multipart/form-data, the file in `field` (default `pdf`). */
export function upload(
  t: TestSandbox,
  query: string,
  bytes: Uint8Array | string,
  auth?: Credentials,
  field = 'pdf',
): Promise<Answer> {
  const form = new FormData();
  form.set(
    field,
    new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], { type: 'application/pdf' }),
    'contract.pdf',
  );
  return t.request(`/api/upload_pdf?${query}`, { method: 'POST', headers: authHeaders(auth), body: form });
}

/** A GET of a file: its status, headers and bytes. */
export async function download(
  t: TestSandbox,
  path: string,
  auth?: Credentials,
): Promise<{ status: number; type: string | null; headers: Headers; bytes: Uint8Array; json?: any }> {
  const res = await t.sandbox.app.request(path, { headers: authHeaders(auth) });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const type = res.headers.get('content-type');
  return {
    status: res.status,
    type,
    headers: res.headers,
    bytes,
    ...(type?.includes('json') ? { json: JSON.parse(Buffer.from(bytes).toString('utf8')) } : {}),
  };
}

export interface TextItem {
  text: string;
  /** From the page's left edge, points. */
  x: number;
  /** From the page's top edge, points (to the baseline). */
  top: number;
}

export interface ReadPage {
  width: number;
  height: number;
  items: TextItem[];
  text: string;
}

/** Every page of a PDF as pdf.js reads it: size, text items with positions, and the page text joined. */
export async function readPdf(bytes: Uint8Array): Promise<ReadPage[]> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({
    data: new Uint8Array(bytes),
    standardFontDataUrl: `${join(PDFJS_ROOT, 'standard_fonts')}/`,
    verbosity: 0,
    isEvalSupported: false,
  }).promise;
  const pages: ReadPage[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const viewport = page.getViewport({ scale: 1 });
    const content = await page.getTextContent();
    const items = content.items
      .filter((i): i is Extract<typeof i, { str: string }> => 'str' in i && i.str.trim() !== '')
      .map((i) => ({ text: i.str, x: i.transform[4] as number, top: viewport.height - (i.transform[5] as number) }));
    pages.push({ width: viewport.width, height: viewport.height, items, text: items.map((i) => i.text).join(' ') });
  }
  await doc.destroy();
  return pages;
}

/** The text of a DOCX's main document, read from its XML (word/document.xml), one paragraph a line. */
export async function readDocx(bytes: Uint8Array): Promise<{ xml: string; paragraphs: string[] }> {
  const zip = await JSZip.loadAsync(bytes);
  const xml = await zip.file('word/document.xml')!.async('string');
  const paragraphs = [...xml.matchAll(/<w:p[ >][\s\S]*?<\/w:p>/g)].map((p) =>
    [...p[0].matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join(''),
  );
  return { xml, paragraphs };
}

/** The path of the credential-free URL a PDF contract's or template's `value` names (domain/links.ts). */
export function documentPath(kind: 'contract' | 'template', key: string, bytes: Uint8Array): string {
  return `/api/${kind}_pdf/${key}/${createHash('sha256').update(bytes).digest('hex')}.pdf`;
}

/** A small valid PNG signature (a dark stroke on white, 60 × 20), as a data: URI a recipient could draw. */
export function signaturePng(): string {
  const width = 60;
  const height = 20;
  const rows: number[] = [];
  for (let y = 0; y < height; y++) {
    rows.push(0);
    for (let x = 0; x < width; x++) {
      const ink = Math.abs(y - (10 + Math.round(6 * Math.sin(x / 6)))) <= 1;
      rows.push(ink ? 30 : 255, ink ? 40 : 255, ink ? 90 : 255);
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${png.toString('base64')}`;
}

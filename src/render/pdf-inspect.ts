/**
 * Reading an uploaded PDF the way a PDF reader would, strictly (docs/documents.md "Uploads: what is accepted"):
 * its page sizes, or a 400 saying what is wrong (empty, not a PDF, cut short, encrypted, unreadable, no pages).
 */
import { inflateSync } from 'node:zlib';
import { EncryptedPDFError, PDFDocument } from 'pdf-lib';
import { ApiError, quote } from '../core/errors.js';
import type { PdfInfo } from './jobs.js';

export async function inspectPdf(bytes: Uint8Array): Promise<PdfInfo> {
  if (bytes.byteLength === 0) throw uploadError('The file in field "pdf" is empty');
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  if (!head.includes('%PDF-'))
    throw uploadError(
      `The file in field "pdf" is not a PDF: it does not start with "%PDF-" (it starts with ${quote(printable(head.slice(0, 16)), 16)})`,
    );
  const tail = Buffer.from(bytes.subarray(Math.max(0, bytes.byteLength - 1024))).toString('latin1');
  if (!tail.includes('%%EOF'))
    throw uploadError('The PDF in field "pdf" is truncated or damaged: it has no "%%EOF" marker at its end');
  checkPackedStreams(bytes);
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { updateMetadata: false, throwOnInvalidObject: true });
  } catch (error) {
    // Encrypted objects may not parse strictly: a lenient second read tells whether encryption was the reason.
    if (isEncryptedError(error) || (await encrypted(bytes)))
      throw uploadError('The PDF in field "pdf" is encrypted (password-protected); upload it without encryption');
    throw uploadError(
      `The PDF in field "pdf" cannot be read: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    );
  }
  if (doc.isEncrypted)
    throw uploadError('The PDF in field "pdf" is encrypted (password-protected); upload it without encryption');
  let pages: { width: number; height: number }[];
  try {
    pages = doc.getPages().map((p) => p.getSize());
  } catch (error) {
    throw uploadError(
      `The PDF in field "pdf" cannot be read: its page tree is damaged (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  if (pages.length === 0) throw uploadError('The PDF in field "pdf" has no pages');
  const bad = pages.findIndex(
    (p) => !(p.width > 0 && p.height > 0 && Number.isFinite(p.width) && Number.isFinite(p.height)),
  );
  if (bad >= 0) throw uploadError(`The PDF in field "pdf" cannot be read: page ${bad} has no usable size`);
  return { pages: pages.map((p) => ({ width: round2(p.width), height: round2(p.height) })) };
}

function isEncryptedError(error: unknown): boolean {
  return error instanceof EncryptedPDFError || (error instanceof Error && error.message.includes('is encrypted'));
}

async function encrypted(bytes: Uint8Array): Promise<boolean> {
  try {
    await PDFDocument.load(bytes, { updateMetadata: false });
    return false;
  } catch (error) {
    return isEncryptedError(error);
  }
}

function uploadError(message: string): ApiError {
  return ApiError.badRequest(message, [{ path: 'pdf', message }]);
}

function printable(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '.');
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

/**
 * The most bytes the object and cross-reference streams of one upload may inflate to, and the most objects they
 * may pack (docs/documents.md, work limits). A PDF reader inflates these to read the file at all, on every
 * download; a few hundred kilobytes can inflate to gigabytes.
 */
export const PACKED_LIMITS = { bytes: 32 * 1024 * 1024, objects: 1_000_000 } as const;

/** Refuses (413) a file whose object or cross-reference streams inflate past PACKED_LIMITS, before any parse. */
function checkPackedStreams(bytes: Uint8Array): void {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const start = /stream\r?\n/g;
  let budget = PACKED_LIMITS.bytes;
  let objects = 0;
  for (let m = start.exec(text); m; m = start.exec(text)) {
    if (text.startsWith('end', m.index - 3)) continue;
    const dictionary = text.slice(Math.max(0, text.lastIndexOf(' obj', m.index)), m.index);
    const packed = /\/Type\s*\/(ObjStm|XRef)\b/.test(dictionary);
    const end = text.indexOf('endstream', start.lastIndex);
    if (end < 0) break;
    if (packed && /\/FlateDecode\b/.test(dictionary)) {
      const count = /\/N\s+(\d+)/.exec(dictionary);
      objects += count ? Number(count[1]) : 0;
      let inflated: number;
      try {
        inflated = inflateSync(bytes.subarray(start.lastIndex, end), { maxOutputLength: budget + 1 }).byteLength;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') inflated = budget + 1;
        else inflated = 0; // a damaged stream: the reader below says so
      }
      budget -= inflated;
      if (budget < 0 || objects > PACKED_LIMITS.objects)
        throw new ApiError(
          413,
          `The PDF in field "pdf" packs too much: its object and cross-reference streams inflate past ${PACKED_LIMITS.bytes} bytes or ${PACKED_LIMITS.objects} objects (the sandbox's limit, docs/documents.md)`,
          [{ path: 'pdf', message: 'Too much packed data' }],
        );
    }
    start.lastIndex = end + 9;
  }
}

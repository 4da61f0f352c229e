/** Signature images embedded in a PDF, for the HTML layout (pdf.ts) and the placed boxes (stamps.ts). */
import type { PDFDocument, PDFImage } from 'pdf-lib';
import type { SignatureImage } from './jobs.js';

/**
 * A signature image embedded, or undefined when it cannot be decoded. Signatures are checked when they are given
 * (domain/signature-image.ts), but one restored from a snapshot was not, and pdf-lib's decoders throw strings.
 */
export async function embedImage(doc: PDFDocument, image: SignatureImage): Promise<PDFImage | undefined> {
  try {
    return image.format === 'png' ? await doc.embedPng(image.bytes) : await doc.embedJpg(image.bytes);
  } catch {
    return undefined;
  }
}

/**
 * The renderer's jobs (renderer.ts): plain data saying what a document shows, built by the domain, drawn by the
 * renderer (docs/documents.md).
 */

/** What a placeholder tag of an HTML contract shows: its text, a drawn signature image, or a table. */
export type FillValue =
  | string
  | { image: SignatureImage; alt: string }
  | { table: { columns: string[]; rows: string[][] } };

export interface SignatureImage {
  format: 'png' | 'jpeg';
  bytes: Uint8Array;
}

/** The values of an HTML contract's placeholder tags, by tag name (`placeholder3`, `sign1`); others keep their text. */
export type Fills = ReadonlyMap<string, FillValue>;

/** What goes in one box of a PDF contract. Geometry in API units: 1/1000 of the page width, from the top-left. */
export interface Stamp {
  pageIndex: number;
  positionX: number;
  positionY: number;
  width: number;
  height: number;
  /** `image` draws a PNG or JPEG signature; `script` a signature shown as text in a script face. */
  content:
    | { kind: 'text'; text: string }
    | ({ kind: 'image' } & SignatureImage)
    | { kind: 'script'; text: string }
    | { kind: 'empty'; label: string };
}

/** The audit trail's facts and rows, as the domain reads them from the contract's history. */
export interface AuditTrail {
  contractKey: string;
  name: string;
  status: string;
  /** SHA-256 of the uploaded file, for PDF contracts. */
  uploadSha256?: string | undefined;
  generatedAt: string;
  events: { time: string; event: string; name: string; email: string; ip: string }[];
}

export interface PdfJob {
  title: string;
  /** The file's dates (the contract's last change, sandbox time, ms). */
  at: number;
  content:
    | { kind: 'html'; html: string; fills: Fills }
    | { kind: 'upload'; bytes: Uint8Array; sha256: string; stamps: Stamp[] };
  /**
   * Appended on pages of the document's own page size, with the SHA-256 of the file made of the document's
   * pages only (the file the trail certifies).
   */
  audit?: AuditTrail | undefined;
}

export interface DocxJob {
  title: string;
  at: number;
  html: string;
  fills: Fills;
}

export interface PdfInfo {
  pages: { width: number; height: number }[];
}

export interface Renderer {
  /** The page sizes of an uploaded PDF, or an ApiError (400/413) saying what is wrong with it. */
  inspectPdf(bytes: Uint8Array): Promise<PdfInfo>;
  pdf(job: PdfJob): Promise<Uint8Array>;
  docx(job: DocxJob): Promise<Uint8Array>;
  /** An HTML contract made safe to show on the recipient page (sanitise.ts). */
  sanitise(html: string): Promise<string>;
}

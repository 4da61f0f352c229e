/**
 * Documents (decisions §12): PDF uploads to PDF contracts and templates, the uploaded file served back, and the
 * downloads made on request from the contract's current state: `download_pdf` (an HTML contract rendered to A4;
 * a PDF contract with its placed fields drawn; signatures once signed; an audit trail once fully signed) and
 * `download_docx` (HTML contracts only, as the real service offers it [real-service.md §5]).
 */
import { EncryptedPDFError, PDFDocument } from 'pdf-lib';
import { ApiError, quote } from '../core/errors.js';
import { sqlTime } from '../core/time-format.js';
import type { OpContext } from './context.js';
import { assertOpen, findContract } from './contracts.js';
import { findTemplate } from './templates.js';
import { placeholdersOf, SPECIAL_TYPES } from './placeholders.js';
import { contractTypeOf, documentPath, placementErrors } from './pdf-geometry.js';
import { type Block, type Fill, htmlToBlocks } from './html-document.js';
import {
  type AuditTrail,
  type Stamp,
  appendAuditTrail,
  drawStamps,
  layoutBlocks,
  newPdf,
  setMetadata,
} from './render-pdf.js';
import { renderDocx } from './render-docx.js';
import { type DocumentStore, sha256Hex } from '../store/documents.js';
import type {
  ClientRecord,
  ContractRecord,
  DocumentRef,
  HistoryEntry,
  PlaceholderRecord,
  TemplateRecord,
} from '../store/records.js';
import { tagOf } from './placeholder-tags.js';
import { actedAs } from './audit-trail.js';

export type DocumentOwner = { contractKey: string } | { templateKey: string };

// ---- reading an upload -------------------------------------------------------------------------------------

/**
 * Reads a would-be PDF the way a PDF reader would, strictly: answers its page sizes, or a 400 saying what is wrong
 * (empty, not a PDF, cut short, encrypted, unreadable, no pages).
 */
export async function inspectPdf(bytes: Uint8Array): Promise<Pick<DocumentRef, 'pages'>> {
  if (bytes.byteLength === 0) throw uploadError('The file in field "pdf" is empty');
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  if (!head.includes('%PDF-'))
    throw uploadError(
      `The file in field "pdf" is not a PDF: it does not start with "%PDF-" (it starts with ${quote(printable(head.slice(0, 16)), 16)})`,
    );
  const tail = Buffer.from(bytes.subarray(Math.max(0, bytes.byteLength - 1024))).toString('latin1');
  if (!tail.includes('%%EOF'))
    throw uploadError('The PDF in field "pdf" is truncated or damaged: it has no "%%EOF" marker at its end');
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

// ---- upload ------------------------------------------------------------------------------------------------

/**
 * Keeps an uploaded PDF as the file of a PDF contract (created with `contractType: "pdf"`, not yet sent) or of a
 * template. Everything is checked before anything is kept: a refused upload changes nothing.
 */
export async function uploadPdf(
  ctx: OpContext,
  documents: DocumentStore,
  client: ClientRecord,
  owner: DocumentOwner,
  bytes: Uint8Array,
): Promise<ContractRecord | TemplateRecord> {
  const record = ownerRecord(ctx, client, owner);
  if ('contractKey' in owner) {
    const contract = record as ContractRecord;
    assertOpen(contract, 'take a new PDF');
    if (contractTypeOf(contract) !== 'pdf') {
      throw ApiError.badRequest(
        `Contract ${contract.contractKey} is an HTML contract; create the contract with contract.contractType "pdf" to upload a PDF to it`,
        [{ path: 'contractKey', message: 'Not a PDF contract' }],
      );
    }
    if (contract.status !== 'Created') {
      throw ApiError.conflict(
        `Contract ${contract.contractKey} has been sent (status ${contract.status}); its PDF can no longer be replaced`,
      );
    }
  } else if (contractTypeOf(record) !== 'pdf' && record.value.trim() !== '') {
    // The real clients create a PDF template with isPdf and no content, then upload [real-service.md §8].
    throw ApiError.badRequest(
      `Template ${(record as TemplateRecord).templateKey} has HTML content; a PDF goes to a template created with an empty value`,
      [{ path: 'templateKey', message: 'Not a PDF template' }],
    );
  }
  const { pages } = await inspectPdf(bytes);
  const document: DocumentRef = { sha256: sha256Hex(bytes), bytes: bytes.byteLength, pages };
  // Fields already placed must still fit the new file.
  const errors = placeholdersOf(ctx, owner).flatMap((p) =>
    p.insertion.flatMap((x) => placementErrors(document, x, `placeholders.${p.placeholderKey}.insertion.${x.id}`)),
  );
  if (errors.length) {
    throw ApiError.badRequest(
      `The new PDF does not fit the fields already placed: ${errors[0]!.path}: ${errors[0]!.message}`,
      errors,
    );
  }
  await documents.put(client.platformId, bytes);
  // The record may have changed while the file was written: read it again before the update.
  const fresh = ownerRecord(ctx, client, owner);
  const patch = {
    contractType: 'pdf' as const,
    document,
    value: documentPath(owner, client.clientKey),
    changeTime: ctx.clock.now(),
  };
  return 'contractKey' in owner
    ? ctx.store.contracts.update((fresh as ContractRecord).contractKey, patch)
    : ctx.store.templates.update((fresh as TemplateRecord).templateKey, patch);
}

function ownerRecord(ctx: OpContext, client: ClientRecord, owner: DocumentOwner): ContractRecord | TemplateRecord {
  return 'contractKey' in owner
    ? findContract(ctx, client, owner.contractKey)
    : findTemplate(ctx, client, owner.templateKey);
}

/** The uploaded file of a contract or template of this client (404 when none was uploaded). */
export function uploadedFile(
  ctx: OpContext,
  documents: DocumentStore,
  client: ClientRecord,
  owner: DocumentOwner,
): { record: ContractRecord | TemplateRecord; bytes: Uint8Array } {
  const record = ownerRecord(ctx, client, owner);
  const bytes = record.document ? documents.get(client.platformId, record.document.sha256) : undefined;
  if (!bytes) throw ApiError.notFound(`${'contractKey' in owner ? 'Contract' : 'Template'} has no uploaded PDF`);
  return { record, bytes };
}

// ---- downloads ---------------------------------------------------------------------------------------------

/** Plain cross-reference tables: writing object streams (pdf-lib's default) took several times longer. */
const SAVE = { useObjectStreams: false } as const;

/** The contract as a PDF, made now from its current state. */
export async function contractPdf(
  ctx: OpContext,
  documents: DocumentStore,
  contract: ContractRecord,
): Promise<Uint8Array> {
  const at = new Date(contract.changeTime);
  const placeholders = placeholdersOf(ctx, { contractKey: contract.contractKey });
  let doc: PDFDocument;
  let uploadSha256: string | undefined;
  if (contractTypeOf(contract) === 'pdf') {
    if (!contract.document)
      throw ApiError.conflict(`Contract ${contract.contractKey} has no PDF yet; upload it with POST /api/upload_pdf`);
    const bytes = documents.get(contract.platformId, contract.document.sha256);
    if (!bytes)
      throw new Error(
        `the file ${contract.document.sha256} of contract ${contract.contractKey} is missing from the document store`,
      );
    uploadSha256 = contract.document.sha256;
    doc = await PDFDocument.load(bytes, { updateMetadata: false });
    setMetadata(doc, contract.name, at);
    await drawStamps(doc, stampsOf(ctx, placeholders));
  } else {
    doc = await newPdf(contract.name, at);
    await layoutBlocks(doc, contractBlocks(ctx, contract, placeholders));
  }
  if (contract.status !== 'Fully signed' && !contract.history.some((h) => h.event === 'fully_signed'))
    return doc.save(SAVE);
  // The audit trail names the document it certifies: the hash of this very file without its audit pages.
  const pagesOnly = await doc.save(SAVE);
  await appendAuditTrail(doc, auditTrail(ctx, contract, sha256Hex(pagesOnly), uploadSha256));
  return doc.save(SAVE);
}

/** The contract as a DOCX: HTML contracts only (400 for a PDF contract, as the real service offers DOCX only for those). */
export async function contractDocx(ctx: OpContext, contract: ContractRecord): Promise<Uint8Array> {
  if (contractTypeOf(contract) === 'pdf') {
    throw ApiError.badRequest(
      `Contract ${contract.contractKey} is a PDF contract; DOCX is only offered for HTML contracts. Use GET /api/download_pdf`,
      [{ path: 'contractKey', message: 'A PDF contract' }],
    );
  }
  return renderDocx(contractBlocks(ctx, contract, placeholdersOf(ctx, { contractKey: contract.contractKey })), {
    title: contract.name,
    at: new Date(contract.changeTime),
  });
}

/** An HTML contract's content with its placeholder tags filled (html-document.ts). */
export function contractBlocks(ctx: OpContext, contract: ContractRecord, placeholders: PlaceholderRecord[]): Block[] {
  const byTag = new Map<string, string>();
  const recipients = new Map<string, { fullname?: string | undefined; email?: string | undefined }>();
  for (const p of placeholders) {
    if (!p.isSpecial) {
      byTag.set(tagOf(p), p.value);
      continue;
    }
    let value = p.value;
    if (p.specialType === 1 && value) value = signedDate(value);
    if (p.specialType === 4 && value) {
      // An image cannot sit in a line of text: the signature reads as the signer's name.
      if (!recipients.has(p.recipientKey ?? ''))
        recipients.set(p.recipientKey ?? '', ctx.store.recipients.get(p.recipientKey ?? '') ?? {});
      const r = recipients.get(p.recipientKey ?? '')!;
      value = value.startsWith('data:') ? `Signed: ${r.fullname || r.email || 'signature'}` : value;
    }
    byTag.set(tagOf(p), value);
  }
  const fill: Fill = (tag) => byTag.get(tag);
  return htmlToBlocks(contract.value, fill);
}

/** The placed placeholders of a PDF contract as boxes to draw. */
function stampsOf(ctx: OpContext, placeholders: PlaceholderRecord[]): Stamp[] {
  const stamps: Stamp[] = [];
  for (const p of placeholders) {
    for (const x of p.insertion) {
      if (x.action === 'delete') continue;
      const geometry = {
        pageIndex: Number(x.pageId),
        positionX: Number(x.positionX),
        positionY: Number(x.positionY),
        width: Number(x.width),
        height: Number(x.height),
      };
      if (!Object.values(geometry).every(Number.isFinite)) continue;
      stamps.push({ ...geometry, content: stampContent(ctx, p) });
    }
  }
  return stamps;
}

function stampContent(ctx: OpContext, p: PlaceholderRecord): Stamp['content'] {
  const label = p.isSpecial
    ? `${SPECIAL_TYPES[p.specialType ?? 1]}${signerName(ctx, p) ? `: ${signerName(ctx, p)}` : ''}`
    : p.name;
  if (!p.value) return { kind: 'empty', label };
  if (p.isSpecial && p.specialType === 1) return { kind: 'text', text: signedDate(p.value) };
  if (p.isSpecial && p.specialType === 4) {
    const image = /^data:image\/(png|jpeg);base64,(.*)$/s.exec(p.value);
    if (image)
      return {
        kind: 'image',
        format: image[1] as 'png' | 'jpeg',
        bytes: new Uint8Array(Buffer.from(image[2]!, 'base64')),
      };
    // pdf-lib embeds PNG and JPEG only: an SVG (the generated signature), GIF or WebP signature is drawn as the
    // signer's name in a script face; a text signature is drawn as its text.
    return { kind: 'script', text: p.value.startsWith('data:') ? signerName(ctx, p) || 'Signed' : p.value };
  }
  return { kind: 'text', text: p.value };
}

function signerName(ctx: OpContext, p: PlaceholderRecord): string {
  if (!p.recipientKey) return '';
  const r = ctx.store.recipients.get(p.recipientKey);
  return r?.fullname || r?.email || '';
}

/** A date-signed value (ISO) as the document shows it: `2026-11-21 09:00:00 UTC`. */
function signedDate(value: string): string {
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? `${sqlTime(ms)} UTC` : value;
}

// ---- the audit trail ---------------------------------------------------------------------------------------

const EVENT_NAMES: Record<string, string> = {
  created: 'Created',
  sent: 'Sent',
  notified: 'Notified',
  seen: 'Seen',
  signed: 'Signed',
  approved: 'Approved',
  locked: 'Locked',
  viewed: 'Viewed',
  fully_signed: 'Fully signed',
  archived: 'Archived',
};

/**
 * Every step of the contract's history, in order, with sandbox time, who (the recipient for a recipient's step, the
 * contract's user for its own) and the IP the step came from: the `ip` a history entry carries (the recipient page
 * records the browser's), else 127.0.0.1 as for the control API and scenarios (decisions §11).
 */
export function auditTrail(
  ctx: OpContext,
  contract: ContractRecord,
  documentSha256: string,
  uploadSha256?: string,
): AuditTrail {
  const user = ctx.store.users.get(contract.userKey);
  return {
    contractKey: contract.contractKey,
    name: contract.name,
    status: contract.status,
    documentSha256,
    uploadSha256,
    generatedAt: `${sqlTime(contract.changeTime)} UTC`,
    events: contract.history.map((h) => {
      const who = h.recipientKey
        ? ctx.store.recipients.get(h.recipientKey)
        : ['created', 'sent', 'archived'].includes(h.event)
          ? user
          : undefined;
      return {
        time: sqlTime(h.at),
        event: EVENT_NAMES[h.event] ?? h.event.replace(/_/g, ' '),
        // The name and email a signer typed (recipient_sign), where a client sent them.
        name:
          actedAs(h)?.fullName ?? who?.fullname ?? (h.recipientKey ? String(recipientDetail(h, 'fullname') ?? '') : ''),
        email: actedAs(h)?.email ?? who?.email ?? (h.recipientKey ? String(recipientDetail(h, 'email') ?? '') : ''),
        ip: ipOf(h),
      };
    }),
  };
}

function recipientDetail(h: HistoryEntry, field: string): unknown {
  return h.detail?.[field];
}

function ipOf(h: HistoryEntry): string {
  const ip = (h as HistoryEntry & { ip?: unknown }).ip ?? h.detail?.ip ?? h.detail?.ipInfo;
  return typeof ip === 'string' && ip !== '' ? ip : '127.0.0.1';
}

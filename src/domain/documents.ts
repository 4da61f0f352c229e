/**
 * Documents (docs/documents.md): PDF uploads to PDF contracts and templates, the uploaded file served back, and the
 * downloads made on request from the contract's current state: `download_pdf` (an HTML contract rendered to A4;
 * a PDF contract with its placed fields drawn; signatures once signed; an audit trail once fully signed) and
 * `download_docx` (HTML contracts only, as the real service offers it [docs/compatibility.md]).
 */
import { ApiError } from '../core/errors.js';
import { peopleTime, sqlTime } from '../core/time-format.js';
import type { OpContext } from './context.js';
import { assertOpen, findContract } from './contracts.js';
import { findTemplate } from './templates.js';
import { placeholdersOf } from './placeholders.js';
import { auditRows } from './audit-trail.js';
import { HISTORY, STATUS, contractTypeOf } from '../core/vocabulary.js';
import { placementErrors } from './pdf-contracts.js';
import { documentPath } from './links.js';
import type { AuditTrail, Renderer, Stamp } from '../render/renderer.js';
import type { DocumentStore, PdfFile } from '../store/documents.js';
import type { ClientRecord, ContractRecord, DocumentRef, TemplateRecord } from '../store/records.js';
import { assertShownSize, documentFills, shownPlaceholders, shownTags, stampContent } from './shown-contract.js';

export type DocumentOwner = { contractKey: string } | { templateKey: string };

// ---- upload ------------------------------------------------------------------------------------------------

/**
 * Keeps an uploaded PDF as the file of a PDF contract (created with `contractType: "pdf"`, not yet sent) or of a
 * template. Everything is checked before anything is kept: a refused upload changes nothing. The record's state
 * is checked again after every wait (reading the file, writing it), so a contract sent meanwhile keeps its PDF.
 */
export async function uploadPdf(
  ctx: OpContext,
  documents: DocumentStore,
  client: ClientRecord,
  owner: DocumentOwner,
  renderer: Renderer,
  { bytes, sha256 }: PdfFile,
): Promise<ContractRecord | TemplateRecord> {
  takingUpload(ctx, client, owner);
  const { pages } = await renderer.inspectPdf(bytes);
  takingUpload(ctx, client, owner);
  const document: DocumentRef = { sha256, bytes: bytes.byteLength, pages };
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
  await documents.put(client.platformId, bytes, sha256);
  // The record may have changed while the file was written: checked again, and updated without another wait.
  const fresh = takingUpload(ctx, client, owner);
  const patch = {
    contractType: 'pdf' as const,
    document,
    value: documentPath(owner, document.sha256),
    changeTime: ctx.clock.now(),
  };
  const updated =
    'contractKey' in owner
      ? ctx.store.contracts.update((fresh as ContractRecord).contractKey, patch)
      : ctx.store.templates.update((fresh as TemplateRecord).templateKey, patch);
  ctx.bus.emit({
    type: 'document.uploaded',
    platformId: client.platformId,
    clientKey: client.clientKey,
    ...owner,
    cause: ctx.cause,
  });
  return updated;
}

/** The contract or template, if it may take a (new) PDF now; else the refusal saying why. */
function takingUpload(ctx: OpContext, client: ClientRecord, owner: DocumentOwner): ContractRecord | TemplateRecord {
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
    if (contract.status !== STATUS.created) {
      throw ApiError.conflict(
        `Contract ${contract.contractKey} has been sent (status ${contract.status}); its PDF can no longer be replaced`,
      );
    }
  } else if (contractTypeOf(record) !== 'pdf' && record.value.trim() !== '') {
    // The real clients create a PDF template with isPdf and no content, then upload [docs/compatibility.md].
    throw ApiError.badRequest(
      `Template ${(record as TemplateRecord).templateKey} has HTML content; a PDF goes to a template created with an empty value`,
      [{ path: 'templateKey', message: 'Not a PDF template' }],
    );
  }
  return record;
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

/** The contract as a PDF, made now from its current state. */
export async function contractPdf(
  ctx: OpContext,
  documents: DocumentStore,
  renderer: Renderer,
  contract: ContractRecord,
): Promise<Uint8Array> {
  let uploadSha256: string | undefined;
  let content: Parameters<Renderer['pdf']>[0]['content'];
  if (contractTypeOf(contract) === 'pdf') {
    if (!contract.document)
      throw ApiError.conflict(`Contract ${contract.contractKey} has no PDF yet; upload it with POST /api/upload_pdf`);
    const bytes = documents.get(contract.platformId, contract.document.sha256);
    if (!bytes)
      throw new Error(
        `the file ${contract.document.sha256} of contract ${contract.contractKey} is missing from the document store`,
      );
    uploadSha256 = contract.document.sha256;
    content = { kind: 'upload', bytes, sha256: uploadSha256, stamps: stampsOf(ctx, contract.contractKey) };
  } else {
    content = { kind: 'html', html: contract.value, fills: htmlFills(ctx, contract) };
  }
  const signed =
    contract.status === STATUS.fullySigned || contract.history.some((h) => h.event === HISTORY.fullySigned);
  return renderer.pdf({
    title: contract.name,
    at: contract.changeTime,
    content,
    audit: signed ? auditPage(ctx, contract, uploadSha256) : undefined,
  });
}

/** The contract as a DOCX: HTML contracts only (400 for a PDF contract, as the real service offers DOCX only for those). */
export async function contractDocx(ctx: OpContext, renderer: Renderer, contract: ContractRecord): Promise<Uint8Array> {
  if (contractTypeOf(contract) === 'pdf') {
    throw ApiError.badRequest(
      `Contract ${contract.contractKey} is a PDF contract; DOCX is only offered for HTML contracts. Use GET /api/download_pdf`,
      [{ path: 'contractKey', message: 'A PDF contract' }],
    );
  }
  return renderer.docx({
    title: contract.name,
    at: contract.changeTime,
    html: contract.value,
    fills: htmlFills(ctx, contract),
  });
}

/** What an HTML contract's placeholder tags show in its documents (shown-contract.ts), its size bounded first. */
function htmlFills(ctx: OpContext, contract: ContractRecord) {
  const shown = shownTags(ctx, contract.contractKey);
  assertShownSize(contract.value, shown);
  return documentFills(shown);
}

/** The placed placeholders of a PDF contract as boxes to draw, each showing what shown-contract.ts says. */
function stampsOf(ctx: OpContext, contractKey: string): Stamp[] {
  const stamps: Stamp[] = [];
  const shown = new Map(shownPlaceholders(ctx, contractKey).map((x) => [x.placeholder.placeholderKey, x.shown]));
  for (const p of placeholdersOf(ctx, { contractKey })) {
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
      stamps.push({ ...geometry, content: stampContent(shown.get(p.placeholderKey)!) });
    }
  }
  return stamps;
}

/**
 * The audit page's facts and rows: the contract's audit trail (audit-trail.ts: who took each step, where from), every
 * row in order, in the PDF's time format.
 */
function auditPage(ctx: OpContext, contract: ContractRecord, uploadSha256?: string): AuditTrail {
  return {
    contractKey: contract.contractKey,
    name: contract.name,
    status: contract.status,
    uploadSha256,
    generatedAt: peopleTime(contract.changeTime),
    events: auditRows(ctx, contract).map((row) => ({
      time: sqlTime(row.at),
      event: row.title,
      name: row.name,
      email: row.email,
      ip: row.ip,
    })),
  };
}

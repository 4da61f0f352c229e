/**
 * The document endpoints, which take no JSON `data` envelope [docs/compatibility.md]: keys in the query string or the
 * path, credentials as on every /api call (Bearer token, or the API-key header plus `clientKey`), answers that are
 * files (docs/documents.md). Each is one declaration (resources/action.ts `DocumentEndpoint`): http/documents.ts
 * mounts it, openapi/document.ts describes it. In the order a 404 lists them.
 */
import { ApiError } from '../core/errors.js';
import { isoTime } from '../core/time-format.js';
import type { OpContext } from '../domain/context.js';
import { findContract } from '../domain/contracts.js';
import { type DocumentOwner, contractDocx, contractPdf, uploadedFile, uploadPdf } from '../domain/documents.js';
import { contentValue } from '../domain/links.js';
import { ownerConfirm } from '../domain/owner-acts.js';
import { resolveShareLink } from '../domain/share-links.js';
import type { DocumentStore } from '../store/documents.js';
import type { ContractRecord, TemplateRecord } from '../store/records.js';
import { z } from 'zod';
import { type DocumentEndpoint, type DocumentRequest, FileBody } from './action.js';
import { isoSchema, okSchema } from './response-shape.js';

const PDF = 'application/pdf';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

// Parameters keep their names and whether they are required as literal types: the package's document types read them.
const query = <N extends string>(name: N, description: string) => ({
  name,
  in: 'query' as const,
  required: true as const,
  description,
});
const optionalQuery = <N extends string>(name: N, description: string) => ({
  ...query(name, description),
  required: false as const,
});
const CLIENT_KEY = optionalQuery('clientKey', 'The client, with platform credentials (a client token names its own)');
const pathKey = <N extends string>(name: N) => ({ name, in: 'path' as const, required: true as const });

/** An uploaded document as an upload answers it: the record's document, as the service answers a write (docs/compatibility.md). */
const uploadedPdfSchema = () =>
  z.strictObject({
    contractKey: z.string().optional(),
    templateKey: z.string().optional(),
    changeTime: isoSchema(),
    contractType: z.literal('pdf'),
    value: z
      .string()
      .meta({ description: 'The path that serves the file (/api/contract_pdf/… or /api/template_pdf/…)' }),
    pages: z.number().int(),
    bytes: z.number().int(),
    sha256: z.string(),
  });

const uploadedSchema = () =>
  okSchema(201, { contract: uploadedPdfSchema().optional(), template: uploadedPdfSchema().optional() });

/** `upload_pdf?contractKey=` or `?templateKey=`: one of them, not both. */
function ownerOf(request: DocumentRequest): DocumentOwner {
  const contractKey = request.query('contractKey');
  const templateKey = request.query('templateKey');
  if (contractKey !== undefined && templateKey !== undefined) {
    throw ApiError.badRequest('Give contractKey or templateKey in the query, not both', [
      { path: 'templateKey', message: 'Give one owner only' },
    ]);
  }
  if (contractKey === undefined && templateKey === undefined) {
    throw ApiError.badRequest(
      'Query parameter contractKey (or templateKey) is required: POST /api/upload_pdf?contractKey=<KEY>&clientKey=<CLIENT_KEY>',
      [{ path: 'contractKey', message: 'Required' }],
    );
  }
  return contractKey !== undefined ? { contractKey } : { templateKey: templateKey! };
}

/**
 * The uploaded file a document URL names, found without credentials: 404 unless the owner exists, has a file,
 * and `file` is that file's `<sha256>.pdf` (so an old URL stops working once a new PDF is uploaded).
 */
function publicFile(
  ctx: OpContext,
  documents: DocumentStore,
  owner: DocumentOwner,
  file: string,
): { record: ContractRecord | TemplateRecord; bytes: Uint8Array } {
  const record =
    'contractKey' in owner ? ctx.store.contracts.get(owner.contractKey) : ctx.store.templates.get(owner.templateKey);
  const sha = /^([0-9a-f]{64})\.pdf$/.exec(file)?.[1];
  const bytes =
    record?.document && sha !== undefined && record.document.sha256 === sha
      ? documents.get(record.platformId, sha)
      : undefined;
  if (!record || !bytes) throw ApiError.notFound('Document not found');
  return { record, bytes };
}

const file = (bytes: Uint8Array, type: string, name: string, disposition?: 'inline') => ({
  status: 200,
  body: new FileBody(bytes, type, name, disposition),
});

/** The uploaded PDF of a contract or template, with credentials, at `/api/<kind>_pdf/{key}`. */
function uploadedEndpoint<K extends 'contract' | 'template'>(kind: K) {
  const key = `${kind}Key` as `${K}Key`;
  return {
    method: 'GET',
    path: `/api/${kind}_pdf/{${key}}`,
    operationId: `${kind}_pdf`,
    summary: `The uploaded PDF of a PDF ${kind}, as uploaded (its \`value\`)`,
    scope: 'client',
    parameters: [pathKey(key), CLIENT_KEY],
    success: { file: PDF, description: 'The uploaded PDF' },
    renders: false,
    async handle(request, ctx) {
      const value = request.param(key);
      const owner: DocumentOwner = kind === 'contract' ? { contractKey: value } : { templateKey: value };
      const { record, bytes } = uploadedFile(ctx, request.documents, ctx.client!, owner);
      return file(bytes, PDF, `${record.name}.pdf`);
    },
  } satisfies DocumentEndpoint;
}

/** A contract drawn as a file, with credentials, at `/api/download_<format>?contractKey=`: named after the contract. */
function downloadEndpoint<F extends 'pdf' | 'docx'>(
  format: F,
  summary: string,
  draw: (request: DocumentRequest, ctx: OpContext, contract: ContractRecord) => Promise<Uint8Array>,
) {
  const type = format === 'pdf' ? PDF : DOCX;
  return {
    method: 'GET',
    path: `/api/download_${format}`,
    operationId: `download_${format}`,
    summary,
    scope: 'client',
    parameters: [query('contractKey', 'The contract'), CLIENT_KEY],
    success: { file: type, description: `The ${format.toUpperCase()}` },
    renders: true,
    async handle(request, ctx) {
      const contract = findContract(ctx, ctx.client!, request.required('contractKey'));
      return file(await draw(request, ctx, contract), type, `${contract.name}.${format}`);
    },
  } satisfies DocumentEndpoint;
}

/**
 * The document URL handed out as `value`: no credentials, as browsers fetch it (docs/compatibility.md, "Document URLs
 * and links"); the file's SHA-256 in the path is what makes it unguessable.
 */
function publicEndpoint<K extends 'contract' | 'template'>(kind: K) {
  const key = `${kind}Key` as `${K}Key`;
  return {
    method: 'GET',
    path: `/api/${kind}_pdf/{${key}}/{file}`,
    operationId: `${kind}_pdf_public`,
    summary: `The uploaded PDF of a PDF ${kind}, as uploaded, with no credentials: the absolute URL its \`value\` holds`,
    scope: 'public',
    parameters: [pathKey(key), { name: 'file', in: 'path', required: true, description: '`<sha256>.pdf`' }],
    success: { file: PDF, description: 'The uploaded PDF' },
    renders: false,
    async handle(request, ctx) {
      const value = request.param(key);
      const owner: DocumentOwner = kind === 'contract' ? { contractKey: value } : { templateKey: value };
      const { record, bytes } = publicFile(ctx, request.documents, owner, request.param('file'));
      return file(bytes, PDF, `${record.name}.pdf`, 'inline');
    },
  } satisfies DocumentEndpoint;
}

/**
 * Every document endpoint by its operation id, in the order a 404 lists them; the package's document types
 * (api-types.ts) read this table.
 */
export const documentTable = {
  upload_pdf: {
    method: 'POST',
    path: '/api/upload_pdf',
    operationId: 'upload_pdf',
    summary: 'Upload the PDF of a PDF contract or template (multipart/form-data, field `pdf`)',
    scope: 'client',
    parameters: [
      optionalQuery('contractKey', 'The contract (or give templateKey)'),
      optionalQuery('templateKey', 'The template (or give contractKey)'),
      CLIENT_KEY,
    ],
    upload: true,
    success: { status: 201, description: 'PDF uploaded', schema: uploadedSchema },
    renders: true,
    async handle(request, ctx) {
      const owner = ownerOf(request);
      const pdf = await request.pdf();
      const record = await uploadPdf(ctx, request.documents, ctx.client!, owner, request.renderer, pdf);
      const noun = 'contractKey' in owner ? 'contract' : 'template';
      // The real service's answer is undocumented; it follows the pattern of its other writes (docs/compatibility.md).
      return {
        status: 201,
        body: {
          [noun]: {
            [`${noun}Key`]: 'contractKey' in owner ? owner.contractKey : owner.templateKey,
            changeTime: isoTime(record.changeTime),
            contractType: 'pdf',
            value: contentValue(request.publicBase(), record),
            pages: record.document!.pages.length,
            bytes: record.document!.bytes,
            sha256: record.document!.sha256,
          },
          code: '201',
          message: 'PDF uploaded',
        },
      };
    },
  },
  download_pdf: downloadEndpoint(
    'pdf',
    'The contract as a PDF: HTML rendered, or the uploaded PDF with its fields drawn; an audit trail page once fully signed',
    (request, ctx, contract) => contractPdf(ctx, request.documents, request.renderer, contract),
  ),
  download_docx: downloadEndpoint('docx', 'An HTML contract as a DOCX (PDF contracts: 400)', (request, ctx, contract) =>
    contractDocx(ctx, request.renderer, contract),
  ),
  recipient_download_pdf: {
    // The recipient side, keyed by the share link instead of credentials [docs/compatibility.md,
    // "recipient_download_pdf"]: what the recipient page offers once the contract is fully signed.
    method: 'GET',
    path: '/api/recipient_download_pdf',
    operationId: 'recipient_download_pdf',
    summary:
      'The contract as a PDF for the holder of a share link (no credentials: the link is the key), as the recipient page offers it once fully signed',
    scope: 'public',
    parameters: [
      query('shareLink', "A share link: a recipient's key, or a link made with contract_share_link"),
      optionalQuery('inline', '`1`: shown in the browser (Content-Disposition inline) rather than saved'),
    ],
    success: { file: PDF, description: 'The PDF' },
    renders: true,
    async handle(request, ctx) {
      const resolved = resolveShareLink(ctx, request.required('shareLink'));
      if (!resolved) throw ApiError.notFound('Share link not found');
      const contract = resolved.contract;
      const owner = { ...ctx, client: ctx.store.clients.get(contract.clientKey)! };
      const bytes = await contractPdf(owner, request.documents, request.renderer, contract);
      // `inline=1`: shown in the recipient page rather than saved.
      return file(bytes, PDF, `${contract.name}.pdf`, request.query('inline') === '1' ? 'inline' : undefined);
    },
  },
  contract_pdf: uploadedEndpoint('contract'),
  template_pdf: uploadedEndpoint('template'),
  contract_email_sign_pdf: {
    // The owner's signed copy, merged in the browser (the original, the signature page, the audit pages), posted to
    // be emailed (docs/compatibility.md, "Owner endpoints"): checked as any upload, not kept (downloads are made from
    // the contract's state), and the confirmation email goes to the outbox as contract_email_sign's does.
    method: 'POST',
    path: '/api/contract_email_sign_pdf',
    operationId: 'contract_email_sign_pdf',
    summary:
      "The owner's signed copy, merged in the browser (multipart field `pdf`): checked as a PDF, not kept; the confirmation email of the owner's signature goes to the outbox",
    scope: 'client',
    parameters: [query('contractKey', 'The contract'), CLIENT_KEY],
    upload: true,
    success: { status: 201, description: 'Email sent', schema: () => okSchema(201, { result: z.literal(true) }) },
    renders: true,
    async handle(request, ctx) {
      const contract = findContract(ctx, ctx.client!, request.required('contractKey'));
      await request.renderer.inspectPdf((await request.pdf()).bytes);
      ownerConfirm(ctx, contract, 'sign');
      return { status: 201, body: { result: true, code: '201', message: 'Email sent' } };
    },
  },
  contract_pdf_public: publicEndpoint('contract'),
  template_pdf_public: publicEndpoint('template'),
} satisfies Record<string, DocumentEndpoint>;

export const documentEndpoints: readonly DocumentEndpoint[] = Object.values(documentTable);

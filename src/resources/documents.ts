/**
 * The document endpoints, which take no JSON `data` envelope [docs/compatibility.md]: keys in the query string or the
 * path, credentials as on every /api call (Bearer token, or the API-key header plus `clientKey`), answers that are
 * files (docs/documents.md). Each is a plain endpoint of the one kit (resources/action.ts `defineEndpoint`, marked
 * `document`) at a path of its own: http/router.ts `mountEndpoints` mounts it, openapi/document.ts describes it, as
 * every other plain endpoint. In the order a 404 lists them.
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
import { type DocumentRequest, type PlainResource, FileBody, defineEndpoint, plainResource } from './action.js';
import { isoSchema, okSchema } from './response-shape.js';

const PDF = 'application/pdf';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** A query parameter, as a string; its description says what it names (the OpenAPI document's). */
const param = (description: string) => z.string().meta({ description });
/** `clientKey`: the client, with platform credentials. */
const clientKey = () =>
  z.string().optional().meta({ description: 'The client, with platform credentials (a client token names its own)' });

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
function ownerOf(input: { contractKey?: string | undefined; templateKey?: string | undefined }): DocumentOwner {
  const { contractKey, templateKey } = input;
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

/** The success of an endpoint whose answer is a file: no JSON body (the package's answer type is `never`). */
const noJson = () => z.never();

/** The owner a path's key names: `{contractKey}` or `{templateKey}`. */
const ownerByKey = (kind: 'contract' | 'template', value: string): DocumentOwner =>
  kind === 'contract' ? { contractKey: value } : { templateKey: value };

/** The uploaded PDF of a contract or template, with credentials, at `/api/<kind>_pdf/{key}`. */
function uploadedEndpoint<K extends 'contract' | 'template'>(kind: K) {
  const key = `${kind}Key` as `${K}Key`;
  return plainResource(
    `/api/${kind}_pdf/{${key}}`,
    defineEndpoint({
      method: 'GET',
      operationId: `${kind}_pdf`,
      summary: `The uploaded PDF of a PDF ${kind}, as uploaded (its \`value\`)`,
      scope: 'client',
      schema: () => z.object({ [key]: z.string(), clientKey: clientKey() }) as z.ZodObject<PathKey<K>>,
      response: noJson,
      document: { file: PDF, answer: 'The uploaded PDF', renders: false },
      async handle(input, ctx, request: DocumentRequest) {
        // The schema's key is `${K}Key`, K not yet known here: its value read by name.
        const owner = ownerByKey(kind, (input as Record<string, string>)[key]!);
        const { record, bytes } = uploadedFile(ctx, request.documents, ctx.client!, owner);
        return file(bytes, PDF, `${record.name}.pdf`);
      },
    }),
  );
}

/** The schema shape of a path's key beside `clientKey`, its name kept as a literal type (the package's types read it). */
type PathKey<K extends 'contract' | 'template'> = { [P in `${K}Key`]: z.ZodString } & {
  clientKey: ReturnType<typeof clientKey>;
};

/** A contract drawn as a file, with credentials, at `/api/download_<format>?contractKey=`: named after the contract. */
function downloadEndpoint<F extends 'pdf' | 'docx'>(
  format: F,
  summary: string,
  draw: (request: DocumentRequest, ctx: OpContext, contract: ContractRecord) => Promise<Uint8Array>,
) {
  const type = format === 'pdf' ? PDF : DOCX;
  return plainResource(
    `/api/download_${format}`,
    defineEndpoint({
      method: 'GET',
      operationId: `download_${format}`,
      summary,
      scope: 'client',
      schema: () => z.object({ contractKey: param('The contract'), clientKey: clientKey() }),
      response: noJson,
      document: { file: type, answer: `The ${format.toUpperCase()}`, renders: true },
      async handle(input, ctx, request: DocumentRequest) {
        const contract = findContract(ctx, ctx.client!, input.contractKey);
        return file(await draw(request, ctx, contract), type, `${contract.name}.${format}`);
      },
    }),
  );
}

/**
 * The document URL handed out as `value`: no credentials, as browsers fetch it (docs/compatibility.md, "Document URLs
 * and links"); the file's SHA-256 in the path is what makes it unguessable.
 */
function publicEndpoint<K extends 'contract' | 'template'>(kind: K) {
  const key = `${kind}Key` as `${K}Key`;
  return plainResource(
    `/api/${kind}_pdf/{${key}}/{file}`,
    defineEndpoint({
      method: 'GET',
      operationId: `${kind}_pdf_public`,
      summary: `The uploaded PDF of a PDF ${kind}, as uploaded, with no credentials: the absolute URL its \`value\` holds`,
      scope: 'public',
      schema: () =>
        z.object({ [key]: z.string(), file: param('`<sha256>.pdf`') }) as z.ZodObject<
          { [P in `${K}Key`]: z.ZodString } & { file: z.ZodString }
        >,
      response: noJson,
      document: { file: PDF, answer: 'The uploaded PDF', renders: false },
      async handle(input, ctx, request: DocumentRequest) {
        const { [key]: value, file: name } = input as Record<string, string>;
        const { record, bytes } = publicFile(ctx, request.documents, ownerByKey(kind, value!), name!);
        return file(bytes, PDF, `${record.name}.pdf`, 'inline');
      },
    }),
  );
}

/**
 * Every document endpoint by its operation id, in the order a 404 lists them; the package's document types
 * (api-types.ts) read this table.
 */
export const documentTable = {
  upload_pdf: plainResource(
    '/api/upload_pdf',
    defineEndpoint({
      method: 'POST',
      operationId: 'upload_pdf',
      summary: 'Upload the PDF of a PDF contract or template (multipart/form-data, field `pdf`)',
      scope: 'client',
      schema: () =>
        z.object({
          contractKey: param('The contract (or give templateKey)').optional(),
          templateKey: param('The template (or give contractKey)').optional(),
          clientKey: clientKey(),
        }),
      response: uploadedSchema,
      document: { upload: true, answer: 'PDF uploaded', renders: true },
      async handle(input, ctx, request: DocumentRequest) {
        const owner = ownerOf(input);
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
    }),
  ),
  download_pdf: downloadEndpoint(
    'pdf',
    'The contract as a PDF: HTML rendered, or the uploaded PDF with its fields drawn; an audit trail page once fully signed',
    (request, ctx, contract) => contractPdf(ctx, request.documents, request.renderer, contract),
  ),
  download_docx: downloadEndpoint('docx', 'An HTML contract as a DOCX (PDF contracts: 400)', (request, ctx, contract) =>
    contractDocx(ctx, request.renderer, contract),
  ),
  // The recipient side, keyed by the share link instead of credentials [docs/compatibility.md,
  // "recipient_download_pdf"]: what the recipient page offers once the contract is fully signed.
  recipient_download_pdf: plainResource(
    '/api/recipient_download_pdf',
    defineEndpoint({
      method: 'GET',
      operationId: 'recipient_download_pdf',
      summary:
        'The contract as a PDF for the holder of a share link (no credentials: the link is the key), as the recipient page offers it once fully signed',
      scope: 'public',
      schema: () =>
        z.object({
          shareLink: param("A share link: a recipient's key, or a link made with contract_share_link"),
          inline: param('`1`: shown in the browser (Content-Disposition inline) rather than saved').optional(),
        }),
      response: noJson,
      document: { file: PDF, answer: 'The PDF', renders: true },
      async handle(input, ctx, request: DocumentRequest) {
        const resolved = resolveShareLink(ctx, input.shareLink);
        if (!resolved) throw ApiError.notFound('Share link not found');
        const contract = resolved.contract;
        const owner = { ...ctx, client: ctx.store.clients.get(contract.clientKey)! };
        const bytes = await contractPdf(owner, request.documents, request.renderer, contract);
        // `inline=1`: shown in the recipient page rather than saved.
        return file(bytes, PDF, `${contract.name}.pdf`, input.inline === '1' ? 'inline' : undefined);
      },
    }),
  ),
  contract_pdf: uploadedEndpoint('contract'),
  template_pdf: uploadedEndpoint('template'),
  // The owner's signed copy, merged in the browser (the original, the signature page, the audit pages), posted to
  // be emailed (docs/compatibility.md, "Owner endpoints"): checked as any upload, not kept (downloads are made from
  // the contract's state), and the confirmation email goes to the outbox as contract_email_sign's does.
  contract_email_sign_pdf: plainResource(
    '/api/contract_email_sign_pdf',
    defineEndpoint({
      method: 'POST',
      operationId: 'contract_email_sign_pdf',
      summary:
        "The owner's signed copy, merged in the browser (multipart field `pdf`): checked as a PDF, not kept; the confirmation email of the owner's signature goes to the outbox",
      scope: 'client',
      schema: () => z.object({ contractKey: param('The contract'), clientKey: clientKey() }),
      response: () => okSchema(201, { result: z.literal(true) }),
      document: { upload: true, answer: 'Email sent', renders: true },
      async handle(input, ctx, request: DocumentRequest) {
        const contract = findContract(ctx, ctx.client!, input.contractKey);
        await request.renderer.inspectPdf((await request.pdf()).bytes);
        ownerConfirm(ctx, contract, 'sign');
        return { status: 201, body: { result: true, code: '201', message: 'Email sent' } };
      },
    }),
  ),
  contract_pdf_public: publicEndpoint('contract'),
  template_pdf_public: publicEndpoint('template'),
};

/** The document endpoints, each a plain resource of its own path: mounted when the sandbox keeps documents. */
export const documentResources: readonly PlainResource[] = Object.values(documentTable);

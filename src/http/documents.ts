/**
 * The document endpoints, which take no JSON `data` envelope [docs/compatibility.md]: keys in the query string,
 * credentials as on every /api call (Bearer token, or the API-key header plus `clientKey`), answers that are
 * files. Errors are ApiErrors, rendered by app.ts like every other /api refusal.
 *
 * - `POST /api/upload_pdf?contractKey=K&clientKey=C` (or `templateKey=T`): multipart/form-data, the file in field `pdf`.
 * - `GET /api/download_pdf?contractKey=K&clientKey=C`: the contract as a PDF, made now.
 * - `GET /api/download_docx?contractKey=K&clientKey=C`: an HTML contract as a DOCX.
 * - `GET /api/contract_pdf/K/<sha256>.pdf`, `GET /api/template_pdf/T/<sha256>.pdf`: the uploaded file as it was
 *   uploaded, with no credentials (what `value` of a PDF contract or template points at: links.ts `documentPath`);
 * - `GET /api/contract_pdf/K?clientKey=C`, `GET /api/template_pdf/T?clientKey=C`: the same file with credentials.
 */
import type { Context, Hono } from 'hono';
import { admit, identify, operationContext } from './auth.js';
import type { OpContext } from '../domain/context.js';
import { findContract } from '../domain/contracts.js';
import { resolveShareLink } from '../domain/share-links.js';
import { contractDocx, contractPdf, type DocumentOwner, uploadedFile, uploadPdf } from '../domain/documents.js';
import { ApiError } from '../core/errors.js';
import { isoTime } from '../core/time-format.js';
import type { DocumentStore } from '../store/documents.js';
import type { ContractRecord, TemplateRecord } from '../store/records.js';
import { contentValue } from '../domain/links.js';
import { ownerConfirm } from '../domain/owner-acts.js';
import { publicBase } from './public-url.js';
import { readPdfUpload } from './upload.js';
import type { Renderer } from '../render/renderer.js';
import type { RequestEnv } from '../domain/request-facts.js';

export interface DocumentRouteOptions {
  documents: DocumentStore;
  /** Largest accepted file, bytes (`--max-upload`). */
  maxUploadBytes: number;
  /** `--public-url`, when given (http/public-url.ts). */
  publicUrl?: string | undefined;
  /** Draws the documents (render/renderer.ts): on a worker thread, its libraries loaded by the first job. */
  renderer: Renderer;
}

export const DOCUMENT_PATHS = [
  '/api/upload_pdf',
  '/api/download_pdf',
  '/api/download_docx',
  '/api/recipient_download_pdf',
  '/api/contract_pdf/{contractKey}',
  '/api/template_pdf/{templateKey}',
  '/api/contract_email_sign_pdf',
  '/api/contract_pdf/{contractKey}/{file}',
  '/api/template_pdf/{templateKey}/{file}',
];

export function mountDocuments(app: Hono<RequestEnv>, options: DocumentRouteOptions): void {
  const { documents, renderer } = options;
  /** A client-scoped document route (`clientKey` in the query); other methods get the one 405 (http/app.ts). */
  const route = (
    path: string,
    method: 'GET' | 'POST',
    handle: (c: Context<RequestEnv>, ctx: OpContext) => Promise<Response>,
  ) => {
    app.on(method, path, async (c) => {
      const principal = identify(c, 'client');
      const clientKey = c.req.query('clientKey') || undefined;
      const client = admit(c, principal, 'client', clientKey, 'clientKey', `${method} ${path}`);
      return handle(c, operationContext(c, principal, client, {}));
    });
  };

  // The recipient side, keyed by the share link instead of credentials [docs/compatibility.md, "recipient_download_pdf"]:
  // what the recipient page offers once the contract is fully signed.
  app.get('/api/recipient_download_pdf', async (c) => {
    const shareLink = requiredQuery(c, 'shareLink');
    const ctx = operationContext(c, identify(c, 'public'), undefined, { shareLink });
    const resolved = resolveShareLink(ctx, shareLink);
    if (!resolved) throw ApiError.notFound('Share link not found');
    const contract = resolved.contract;
    const bytes = await contractPdf(
      { ...ctx, client: ctx.store.clients.get(contract.clientKey)! },
      documents,
      renderer,
      contract,
    );
    // `inline=1`: shown in the recipient page rather than saved.
    return file(
      c,
      bytes,
      'application/pdf',
      `${contract.name}.pdf`,
      c.req.query('inline') === '1' ? 'inline' : 'attachment',
    );
  });

  route('/api/upload_pdf', 'POST', async (c, ctx) => {
    const owner = ownerFromQuery(c);
    const file = await readPdfUpload(c, options.maxUploadBytes);
    const record = await uploadPdf(ctx, documents, ctx.client!, owner, renderer, file);
    const noun = 'contractKey' in owner ? 'contract' : 'template';
    // The real service's answer is undocumented; it follows the pattern of its other writes (docs/compatibility.md).
    return c.json(
      {
        [noun]: {
          [`${noun}Key`]: 'contractKey' in owner ? owner.contractKey : owner.templateKey,
          changeTime: isoTime(record.changeTime),
          contractType: 'pdf',
          value: contentValue(publicBase(c, options.publicUrl), record),
          pages: record.document!.pages.length,
          bytes: record.document!.bytes,
          sha256: record.document!.sha256,
        },
        code: '201',
        message: 'PDF uploaded',
      },
      201,
    );
  });

  // The owner's signed copy, merged in the browser (the original, the signature page, the audit pages), posted to
  // be emailed (docs/compatibility.md, "Owner endpoints"): checked as any upload, not kept (downloads are made from
  // the contract's state), and the confirmation email goes to the outbox as contract_email_sign's does.
  route('/api/contract_email_sign_pdf', 'POST', async (c, ctx) => {
    const contract = findContract(ctx, ctx.client!, requiredQuery(c, 'contractKey'));
    await renderer.inspectPdf((await readPdfUpload(c, options.maxUploadBytes)).bytes);
    ownerConfirm(ctx, contract, 'sign');
    return c.json({ result: true, code: '201', message: 'Email sent' }, 201);
  });

  route('/api/download_pdf', 'GET', async (c, ctx) => {
    const contract = findContract(ctx, ctx.client!, requiredQuery(c, 'contractKey'));
    return file(c, await contractPdf(ctx, documents, renderer, contract), 'application/pdf', `${contract.name}.pdf`);
  });

  route('/api/download_docx', 'GET', async (c, ctx) => {
    const contract = findContract(ctx, ctx.client!, requiredQuery(c, 'contractKey'));
    return file(
      c,
      await contractDocx(ctx, renderer, contract),
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      `${contract.name}.docx`,
    );
  });

  for (const kind of ['contract', 'template'] as const) {
    // The document URL handed out as `value`: no credentials, as browsers fetch it (docs/compatibility.md,
    // "Document URLs and links"); the file's SHA-256 in the path is what makes it unguessable.
    app.get(`/api/${kind}_pdf/:key/:file`, async (c) => {
      const ctx = operationContext(c, identify(c, 'public'), undefined, {});
      const key = c.req.param('key');
      const owner: DocumentOwner = kind === 'contract' ? { contractKey: key } : { templateKey: key };
      const { record, bytes } = publicFile(ctx, documents, owner, c.req.param('file'));
      return file(c, bytes, 'application/pdf', `${record.name}.pdf`, 'inline');
    });
    route(`/api/${kind}_pdf/:key`, 'GET', async (c, ctx) => {
      const key = c.req.param('key') ?? '';
      const owner: DocumentOwner = kind === 'contract' ? { contractKey: key } : { templateKey: key };
      const { record, bytes } = uploadedFile(ctx, documents, ctx.client!, owner);
      return file(c, bytes, 'application/pdf', `${record.name}.pdf`);
    });
  }
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

function requiredQuery(c: Context, name: string): string {
  const value = c.req.query(name);
  if (value === undefined || value === '') {
    throw ApiError.badRequest(
      `Query parameter ${name} is required, e.g. ${c.req.path}?${name}=<KEY>&clientKey=<CLIENT_KEY>`,
      [{ path: name, message: 'Required' }],
    );
  }
  return value;
}

function ownerFromQuery(c: Context): DocumentOwner {
  const contractKey = c.req.query('contractKey') || undefined;
  const templateKey = c.req.query('templateKey') || undefined;
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

function file(
  c: Context,
  bytes: Uint8Array,
  type: string,
  name: string,
  disposition: 'attachment' | 'inline' = 'attachment',
): Response {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
    'content-type': type,
    'content-length': String(bytes.byteLength),
    'content-disposition': `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`,
    'cache-control': 'no-store',
  });
}

/**
 * The file operations of the OpenAPI document (document.ts): uploads and downloads of PDFs and DOCX, and the AI
 * endpoints the sandbox answers 501.
 */
import { API_SECURITY, INJECTED, type Json, errorResponses, renderBusyResponse } from './responses.js';

/**
 * The document endpoints (http/documents.ts, docs/documents.md): not envelopes, and not JSON on success, so they are
 * described here as they are rather than derived from a resource table. Those whose work goes through the render
 * queue (reading an uploaded PDF, drawing a PDF or DOCX) say so with `renders`, which declares the queue's 503.
 */
export function documentOperations(): Record<string, Json> {
  const query = (name: string, description: string, required = true) => ({
    name,
    in: 'query',
    required,
    schema: { type: 'string' },
    description,
  });
  const clientKey = query('clientKey', 'The client, with platform credentials (a client token names its own)', false);
  const errors = errorResponses(['400', '401', '403', '404', '405', '409', '413', '415', '429', '500', '503']);
  /** The refusals of a document operation; `renders`: its work goes through the render queue (render/queue.ts). */
  const refusals = (renders: boolean) => ({ ...errors, ...(renders ? renderBusyResponse() : {}), ...INJECTED });
  const file = (type: string, description: string, renders: boolean) => ({
    '200': { description, content: { [type]: { schema: { type: 'string', format: 'binary' } } } },
    ...refusals(renders),
  });
  const get = (
    operationId: string,
    summary: string,
    parameters: Json[],
    type: string,
    description: string,
    renders: boolean,
  ) => ({
    get: {
      operationId,
      tags: ['API'],
      summary,
      security: API_SECURITY,
      parameters,
      responses: file(type, description, renders),
    },
  });
  const pdf = 'application/pdf';
  /** A multipart body with the file in field `pdf` (upload_pdf, contract_email_sign_pdf). */
  const pdfForm = {
    required: true,
    content: {
      'multipart/form-data': {
        schema: { type: 'object', required: ['pdf'], properties: { pdf: { type: 'string', format: 'binary' } } },
      },
    },
  };
  // The URL a PDF's `value` names: no credentials, the file's SHA-256 in the path (http/documents.ts).
  const publicFile = (kind: 'contract' | 'template') => ({
    get: {
      operationId: `${kind}_pdf_public`,
      tags: ['API'],
      summary: `The uploaded PDF of a PDF ${kind}, as uploaded, with no credentials: the absolute URL its \`value\` holds`,
      security: [],
      parameters: [
        { name: `${kind}Key`, in: 'path', required: true, schema: { type: 'string' } },
        { name: 'file', in: 'path', required: true, schema: { type: 'string' }, description: '`<sha256>.pdf`' },
      ],
      responses: file(pdf, 'The uploaded PDF', false),
    },
  });
  const docx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
  return {
    '/api/upload_pdf': {
      post: {
        operationId: 'upload_pdf',
        tags: ['API'],
        summary: 'Upload the PDF of a PDF contract or template (multipart/form-data, field `pdf`)',
        security: API_SECURITY,
        parameters: [
          query('contractKey', 'The contract (or give templateKey)', false),
          query('templateKey', 'The template (or give contractKey)', false),
          clientKey,
        ],
        requestBody: pdfForm,
        responses: {
          '201': {
            description: 'PDF uploaded',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['code', 'message'],
                  properties: {
                    contract: { $ref: '#/components/schemas/UploadedPdf' },
                    template: { $ref: '#/components/schemas/UploadedPdf' },
                    code: { const: '201' },
                    message: { const: 'PDF uploaded' },
                  },
                },
              },
            },
          },
          ...refusals(true),
        },
      },
    },
    '/api/download_pdf': get(
      'download_pdf',
      'The contract as a PDF: HTML rendered, or the uploaded PDF with its fields drawn; an audit trail page once fully signed',
      [query('contractKey', 'The contract'), clientKey],
      pdf,
      'The PDF',
      true,
    ),
    '/api/recipient_download_pdf': {
      get: {
        operationId: 'recipient_download_pdf',
        tags: ['API'],
        summary:
          'The contract as a PDF for the holder of a share link (no credentials: the link is the key), as the recipient page offers it once fully signed',
        security: [],
        parameters: [query('shareLink', "A share link: a recipient's key, or a link made with contract_share_link")],
        responses: file(pdf, 'The PDF', true),
      },
    },
    '/api/download_docx': get(
      'download_docx',
      'An HTML contract as a DOCX (PDF contracts: 400)',
      [query('contractKey', 'The contract'), clientKey],
      docx,
      'The DOCX',
      true,
    ),
    '/api/contract_pdf/{contractKey}': get(
      'contract_pdf',
      'The uploaded PDF of a PDF contract, as uploaded (its `value`)',
      [{ name: 'contractKey', in: 'path', required: true, schema: { type: 'string' } }, clientKey],
      pdf,
      'The uploaded PDF',
      false,
    ),
    '/api/contract_pdf/{contractKey}/{file}': publicFile('contract'),
    '/api/template_pdf/{templateKey}/{file}': publicFile('template'),
    '/api/contract_email_sign_pdf': {
      post: {
        operationId: 'contract_email_sign_pdf',
        tags: ['API'],
        summary:
          "The owner's signed copy, merged in the browser (multipart field `pdf`): checked as a PDF, not kept; the confirmation email of the owner's signature goes to the outbox",
        security: API_SECURITY,
        parameters: [query('contractKey', 'The contract'), clientKey],
        requestBody: pdfForm,
        responses: {
          '201': {
            description: 'Email sent',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['result', 'code', 'message'],
                  properties: { result: { const: true }, code: { const: '201' }, message: { const: 'Email sent' } },
                },
              },
            },
          },
          ...refusals(true),
        },
      },
    },
    ...Object.fromEntries(
      ['context', 'context_files', 'chat'].map((name) => [
        `/api/${name}`,
        {
          post: {
            operationId: name,
            tags: ['API'],
            summary: `The AI assistant's ${name}: not emulated, answers 501`,
            security: API_SECURITY,
            responses: {
              '501': {
                description: 'Not emulated: the sandbox answers no AI requests',
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
              },
              ...INJECTED,
            },
          },
        },
      ]),
    ),
    '/api/template_pdf/{templateKey}': get(
      'template_pdf',
      'The uploaded PDF of a PDF template, as uploaded (its `value`)',
      [{ name: 'templateKey', in: 'path', required: true, schema: { type: 'string' } }, clientKey],
      pdf,
      'The uploaded PDF',
      false,
    ),
  };
}

/**
 * The absolute URLs the sandbox hands out, built in one place (`publicUrl`): the recipient links of request
 * emails and the document URLs of PDF contracts and templates. Their base is `--public-url` when given, else the
 * origin the request came in on, else (links made outside a request, like the emails of a clock advance) the
 * listening address; the HTTP edge picks it (docs/compatibility.md, "Document URLs and links").
 */
import { contractTypeOf } from '../core/vocabulary.js';
import type { ContractRecord, TemplateRecord } from '../store/records.js';

/** `base` (an origin, perhaps with a path prefix) joined with a sandbox path that starts with `/`. */
export function publicUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
}

/**
 * The link a request email carries to a recipient's page: `<base>/sharing/<recipientKey>`, the shape of the real
 * service's recipient links, whose own share link is the recipient key (docs/compatibility.md, "Share links").
 */
export function recipientLink(base: string, recipientKey: string): string {
  return publicUrl(base, `/sharing/${encodeURIComponent(recipientKey)}`);
}

export type DocumentOwnerKey = { contractKey: string } | { templateKey: string };

/**
 * Where a PDF contract's or template's uploaded file is served without credentials, as browsers fetch it (the
 * components load `value` with no headers): the path holds the owner's key and the file's SHA-256, so only someone
 * who has the file (or was handed the URL) can name it, and a new upload retires the old URL.
 */
export function documentPath(owner: DocumentOwnerKey, sha256: string): string {
  const [kind, key] = 'contractKey' in owner ? ['contract', owner.contractKey] : ['template', owner.templateKey];
  return `/api/${kind}_pdf/${encodeURIComponent(key)}/${sha256}.pdf`;
}

/**
 * `value` of a contract or template as answers show it: the HTML content, or for a PDF whose file is uploaded the
 * absolute URL of that file (docs/compatibility.md, "Document URLs and links").
 */
export function contentValue(base: string, record: ContractRecord | TemplateRecord): string {
  if (contractTypeOf(record) !== 'pdf' || !record.document) return record.value;
  const owner: DocumentOwnerKey =
    'contractKey' in record ? { contractKey: record.contractKey } : { templateKey: record.templateKey };
  return publicUrl(base, documentPath(owner, record.document.sha256));
}

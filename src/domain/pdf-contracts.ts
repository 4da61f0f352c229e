/**
 * PDF contracts and templates (their type itself is core/vocabulary.ts `contractTypeOf`): what a copy keeps of the
 * uploaded file, and the geometry rule for placed placeholders (docs/documents.md): `pageId` from 0; `positionX`,
 * `positionY`, `width`, `height` in 1/1000 of the page's width, from the page's top-left corner [docs/compatibility.md:
 * "page width is 1000 API units", "Coordinates start at the top-left of the page"].
 */
import type { FieldError } from '../core/errors.js';
import { type ContractType, contractTypeOf } from '../core/vocabulary.js';
import type { ContractRecord, DocumentRef, InsertionRecord, TemplateRecord } from '../store/records.js';
import { type DocumentOwnerKey, documentPath } from './links.js';

/**
 * What a copy of a PDF contract or template (template convert and duplicate, contract from template, contract
 * duplicate) keeps: the type and the uploaded file (shared, addressed by its hash), with `value` the copy's own
 * document path (links.ts). Empty for HTML sources, so it can always be spread into the new record.
 */
export function documentFields(
  source: Pick<ContractRecord | TemplateRecord, 'contractType' | 'document'>,
  copy: DocumentOwnerKey,
): { contractType?: ContractType; document?: DocumentRef; value?: string } {
  if (contractTypeOf(source) !== 'pdf') return {};
  return {
    contractType: 'pdf',
    ...(source.document
      ? { document: structuredClone(source.document), value: documentPath(copy, source.document.sha256) }
      : { value: '' }),
  };
}

/** A page's height in API units (its width is 1000). */
export function pageHeightUnits(page: { width: number; height: number }): number {
  return (1000 * page.height) / page.width;
}

const BOX_FIELDS = ['positionX', 'positionY', 'width', 'height'] as const;
// Rounding slack: a box computed as exactly the page edge by a client in another unit must still fit.
const SLACK = 0.5;

/**
 * Whether one placement (after merging with the one it updates) fits the uploaded file. Answers field errors
 * under `path` (e.g. `data.placeholders.0.insertion.1`), empty when it fits.
 */
export function placementErrors(
  document: DocumentRef,
  insertion: Partial<InsertionRecord>,
  path: string,
): FieldError[] {
  const errors: FieldError[] = [];
  const count = document.pages.length;
  const pageText = insertion.pageId;
  const pageId = pageText === undefined || pageText.trim() === '' ? NaN : Number(pageText);
  if (pageText === undefined) errors.push({ path: `${path}.pageId`, message: `Required: the page, 0 to ${count - 1}` });
  else if (!Number.isInteger(pageId) || pageId < 0 || pageId >= count) {
    errors.push({
      path: `${path}.pageId`,
      message: `No page ${pageText}: the PDF has ${count} page${count === 1 ? '' : 's'}, numbered 0 to ${count - 1}`,
    });
  }
  const box: Record<(typeof BOX_FIELDS)[number], number> = { positionX: NaN, positionY: NaN, width: NaN, height: NaN };
  for (const field of BOX_FIELDS) {
    const text = insertion[field];
    const value = text === undefined || text.trim() === '' ? NaN : Number(text);
    if (text === undefined)
      errors.push({ path: `${path}.${field}`, message: 'Required on a PDF contract, in 1/1000 of the page width' });
    else if (!Number.isFinite(value) || value < 0 || ((field === 'width' || field === 'height') && value === 0)) {
      errors.push({
        path: `${path}.${field}`,
        message: `Must be a ${field === 'width' || field === 'height' ? 'positive' : 'non-negative'} number in 1/1000 of the page width (got ${JSON.stringify(text)})`,
      });
    } else box[field] = value;
  }
  const page = Number.isInteger(pageId) ? document.pages[pageId] : undefined;
  if (page && errors.length === 0) {
    const bottom = pageHeightUnits(page);
    if (box.positionX + box.width > 1000 + SLACK) {
      errors.push({
        path: `${path}.width`,
        message: `The box ends at ${round(box.positionX + box.width)}, past the page's right edge at 1000`,
      });
    }
    if (box.positionY + box.height > bottom + SLACK) {
      errors.push({
        path: `${path}.height`,
        message: `The box ends at ${round(box.positionY + box.height)}, past the bottom edge of page ${pageId} at ${round(bottom)}`,
      });
    }
  }
  return errors;
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

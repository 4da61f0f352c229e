/**
 * Contract HTML made safe to show (docs/pages.md: no script from a contract ever runs on a sandbox page), with
 * sanitize-html: formatting, tables, lists, links and images stay; scripts, event handlers, styles, frames, forms
 * and any URL scheme but http(s)/mailto (data: for images) go. The page's CSP (http/pages/layout.ts) is the second
 * wall. The library is loaded on the first recipient page, so a sandbox that never shows one never pays for it. It
 * runs as a render job (renderer.ts), on the worker thread: sanitising a megabyte of hostile HTML took seconds.
 */
import type { IOptions } from 'sanitize-html';
import { limitNesting } from '../core/html-nesting.js';

let library: Promise<{ default: typeof import('sanitize-html') }> | undefined;

export async function sanitiseContractHtml(dirty: string): Promise<string> {
  library ??= import('sanitize-html');
  const { default: sanitizeHtml } = await library;
  const options: IOptions = {
    allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'span', 'u', 's', 'del', 'ins', 'sub', 'sup'],
    allowedAttributes: {
      a: ['href', 'title', 'rel'],
      img: ['src', 'alt', 'title', 'width', 'height', 'class'],
      span: ['class'],
      td: ['colspan', 'rowspan'],
      th: ['colspan', 'rowspan', 'scope'],
      ol: ['start'],
    },
    allowedClasses: { span: ['placeholder', 'empty', 'signature'], img: ['signature'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    // Only inline images: a contract's picture must not make the page call out (the pages work offline).
    allowedSchemesByTag: { img: ['data'] },
    allowProtocolRelative: false,
    transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer' }) },
  };
  // Its parser and its own stack are quadratic in nesting depth: bounded first (docs/pages.md).
  return sanitizeHtml(limitNesting(dirty), options);
}

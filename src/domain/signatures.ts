/**
 * Signatures (docs/lifecycle.md): a short text, or an image as a base64 data URI. A recipient signing without one
 * (through the control API or a scenario) gets a generated image of its name.
 */
import { ApiError } from '../core/errors.js';
import type { RecipientRecord } from '../store/records.js';
import { checkSignatureImage, type SignatureFormat } from './signature-image.js';
import { escapeMarkup } from '../core/markup.js';
import { recipientName } from './recipients.js';

const IMAGE_DATA_URI = /^data:image\/(png|jpeg|gif|webp|svg\+xml);base64,([A-Za-z0-9+/]+={0,2})$/;
export const MAX_TEXT_SIGNATURE = 200;

/**
 * A signature is a short text, or an image as a base64 data URI, checked by decoding it (signature-image.ts).
 */
export function checkSignature(signature: string): string {
  if (signature.startsWith('data:')) {
    const image = IMAGE_DATA_URI.exec(signature);
    if (!image) {
      throw ApiError.badRequest(
        'signature: an image signature must be a base64 data URI of a png, jpeg, gif, webp or svg image',
        [{ path: 'signature', message: 'Not an image data URI' }],
      );
    }
    checkSignatureImage(image[1] as SignatureFormat, image[2]!);
    return signature;
  }
  const text = signature.trim();
  if (text.length === 0 || text.length > MAX_TEXT_SIGNATURE || /[\r\n]/.test(text)) {
    throw ApiError.badRequest(`signature: a text signature is one line of 1 to ${MAX_TEXT_SIGNATURE} characters`, [
      { path: 'signature', message: 'Not a text signature' },
    ]);
  }
  return text;
}

/** The stand-in signature when none is given: the recipient's name as an SVG image (deterministic). */
export function generatedSignature(recipient: Pick<RecipientRecord, 'fullname' | 'email'>): string {
  const name = escapeMarkup(recipientName(recipient) ?? 'Signed');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="80"><text x="10" y="52" font-family="cursive" font-size="32">${name}</text></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
}

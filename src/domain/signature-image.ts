/**
 * A drawn signature checked at the door (docs/errors.md, limits): the image is read as a decoder would, its size
 * and dimensions bounded, so that no signature accepted once can break every later download of the signed PDF.
 * A PNG is decoded: its header, its IHDR, and its image data inflated (bounded by the size the IHDR implies) to
 * exactly the bytes its rows need, each row with a valid filter. A JPEG must carry its markers and a frame header
 * within the bounds. Other formats (SVG, GIF, WebP) are never decoded by the sandbox: only their size is bounded.
 */
import { inflateSync } from 'node:zlib';
import { ApiError } from '../core/errors.js';

export const SIGNATURE_IMAGE_LIMITS = { bytes: 1024 * 1024, width: 2000, height: 1000 } as const;

export type SignatureFormat = 'png' | 'jpeg' | 'gif' | 'webp' | 'svg+xml';

/**
 * Checks a signature image given as base64 (the data URI's payload, or the `base64` field of a signing request);
 * answers its bytes, or throws a 400 at `path` saying what is wrong.
 */
export function checkSignatureImage(format: SignatureFormat, base64: string, path = 'signature'): Uint8Array {
  const bytes = new Uint8Array(Buffer.from(base64, 'base64'));
  const refuse = (why: string) =>
    ApiError.badRequest(`${path}: the ${format} signature image cannot be used: ${why}`, [{ path, message: why }]);
  if (bytes.byteLength === 0) throw refuse('it is empty');
  if (bytes.byteLength > SIGNATURE_IMAGE_LIMITS.bytes)
    throw refuse(`it is ${bytes.byteLength} bytes, more than the limit of ${SIGNATURE_IMAGE_LIMITS.bytes}`);
  const problem = format === 'png' ? pngProblem(bytes) : format === 'jpeg' ? jpegProblem(bytes) : undefined;
  if (problem) throw refuse(problem);
  return bytes;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Bits per pixel's channels, by colour type: grey, -, RGB, palette, grey+alpha, -, RGBA. */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

function bounds(width: number, height: number): string | undefined {
  const { width: w, height: h } = SIGNATURE_IMAGE_LIMITS;
  if (width < 1 || height < 1) return `its dimensions are ${width}×${height}`;
  if (width > w || height > h) return `it is ${width}×${height} pixels, larger than the limit of ${w}×${h}`;
  return undefined;
}

function pngProblem(bytes: Uint8Array): string | undefined {
  if (bytes.byteLength < 33 || PNG_SIGNATURE.some((b, i) => bytes[i] !== b)) return 'it is not a PNG file';
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const type = (at: number) => String.fromCharCode(...bytes.subarray(at + 4, at + 8));
  if (type(8) !== 'IHDR' || view.getUint32(8) !== 13) return 'it has no image header (IHDR)';
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  const depth = bytes[24]!;
  const colour = bytes[25]!;
  const outOfBounds = bounds(width, height);
  if (outOfBounds) return outOfBounds;
  const channels = CHANNELS[colour];
  if (channels === undefined || ![1, 2, 4, 8, 16].includes(depth)) return 'its colour type or bit depth is invalid';
  if (bytes[28] !== 0) return 'it is interlaced (draw it again, or save it without interlacing)';
  const idat: Uint8Array[] = [];
  let palette = false;
  let end = false;
  for (let at = 8; at + 12 <= bytes.byteLength; ) {
    const length = view.getUint32(at);
    if (at + 12 + length > bytes.byteLength) return 'it is cut short';
    const name = type(at);
    if (name === 'IDAT') idat.push(bytes.subarray(at + 8, at + 8 + length));
    if (name === 'PLTE') palette = true;
    if (name === 'IEND') {
      end = true;
      break;
    }
    at += 12 + length;
  }
  if (!end) return 'it is cut short (no IEND chunk)';
  if (colour === 3 && !palette) return 'it has a palette colour type but no palette';
  if (idat.length === 0) return 'it has no image data';
  const rowBytes = Math.ceil((width * channels * depth) / 8);
  const expected = height * (rowBytes + 1);
  let pixels: Buffer;
  try {
    pixels = inflateSync(Buffer.concat(idat), { maxOutputLength: expected + 1 });
  } catch {
    return 'its image data cannot be decoded';
  }
  if (pixels.byteLength !== expected) return 'its image data does not match its dimensions';
  for (let row = 0; row < height; row++) if (pixels[row * (rowBytes + 1)]! > 4) return 'its image data is damaged';
  return undefined;
}

function jpegProblem(bytes: Uint8Array): string | undefined {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return 'it is not a JPEG file';
  // Walks the markers to the frame header (SOF0–SOF15 but DHT, JPG and DAC), which gives the dimensions.
  for (let at = 2; at + 9 < bytes.byteLength; ) {
    if (bytes[at] !== 0xff) return 'it is damaged';
    const marker = bytes[at + 1]!;
    const length = (bytes[at + 2]! << 8) | bytes[at + 3]!;
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      const height = (bytes[at + 5]! << 8) | bytes[at + 6]!;
      const width = (bytes[at + 7]! << 8) | bytes[at + 8]!;
      return bounds(width, height);
    }
    if (length < 2) return 'it is damaged';
    at += 2 + length;
  }
  return 'it has no frame header';
}

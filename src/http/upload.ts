/**
 * The `pdf` file of a multipart/form-data body (upload_pdf, contract_email_sign_pdf; docs/documents.md), parsed as it
 * streams in (@fastify/busboy) with its SHA-256 taken along the way, the uploads at once sharing each turn of the
 * event loop (core/turn-share.ts): 50 uploads of 5 MB at once stalled the event loop 0.8-2.8 s when each body was
 * read whole, parsed by `Response.formData()` and hashed twice; see docs/benchmarks.md for the figure now.
 */
import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import { ApiError, quote } from '../core/errors.js';
import { type TurnShare, turnShare } from '../core/turn-share.js';
import type { PdfFile } from '../store/documents.js';
import { nodeChunks, readChunks, refuseUnread, webChunks } from './body.js';

/** Room the multipart wrapping (boundaries, part headers) may take beyond the file itself. */
const MULTIPART_SLACK = 64 * 1024;
/** Where the copy of a file of a chunked body (no declared length) starts; it doubles as needed. */
const FIRST_CAPACITY = 1024 * 1024;

/**
 * The bytes of uploads parsed in one turn of the event loop, all uploads together: four 64 KB chunks, about 1 ms of
 * parsing, copying and hashing on the machine of docs/benchmarks.md. With a chunk of each upload a turn instead, the
 * longest stall of 50 uploads of 5 MB at once was 342 ms (median of 22 runs at load 9–19) beside 194 ms with this
 * share; 1 MB a turn was between the two.
 */
const UPLOAD_BYTES_PER_TURN = 256 * 1024;

/** How the uploads of one sandbox share the event loop's turns (readPdfUpload): one share per app. */
export function uploadTurns(): TurnShare {
  return turnShare(UPLOAD_BYTES_PER_TURN);
}

/**
 * The `pdf` file of the request's multipart/form-data body, within the upload limit (413 past it), parsed a chunk at
 * a time within `turns`.
 */
export async function readPdfUpload(c: Context, maxUploadBytes: number, turns: TurnShare): Promise<PdfFile> {
  const type = c.req.header('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(type) || !/boundary=/i.test(type)) {
    throw new ApiError(
      415,
      `Content-Type must be multipart/form-data with the file in field "pdf" (got ${type ? quote(type, 100) : 'none'})`,
    );
  }
  const request = c.req.raw;
  // An API fault that matches on bodies reads the body as text first, which a binary upload does not survive.
  if (request.bodyUsed)
    throw ApiError.badRequest(
      'The upload was already read as text by an API fault that matches request bodies; such faults cannot cover /api/upload_pdf',
    );
  const maxBody = maxUploadBytes + MULTIPART_SLACK;
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBody) return refuseUnread(request, declared, tooLarge(maxUploadBytes));

  const form = await formReader(type, Number.isFinite(declared) ? declared : FIRST_CAPACITY);
  // A chunk (at most 64 KB) is parsed once it fits in this turn's share: however many uploads run, a turn of the
  // event loop parses at most the share, not a chunk of each.
  await readChunks(
    nodeChunks(c) ?? webChunks(request),
    maxBody,
    () => tooLarge(maxUploadBytes),
    async (chunk) => {
      await turns.take(chunk.byteLength);
      form.write(chunk);
    },
  );
  const { file, names, pdfIsText } = await form.end();
  if (!file && pdfIsText) {
    throw ApiError.badRequest(
      'Field "pdf" must be a file (a part with a filename), not a text value; send it as pdf=@file.pdf',
      [{ path: 'pdf', message: 'Not a file' }],
    );
  }
  if (!file) {
    throw ApiError.badRequest(
      `No field "pdf" in the form${names.length ? ` (got ${names.map((n) => quote(n, 40)).join(', ')})` : ''}; send the file as pdf=@file.pdf`,
      [{ path: 'pdf', message: 'Required' }],
    );
  }
  if (file.bytes.byteLength > maxUploadBytes) throw tooLarge(maxUploadBytes, file.bytes.byteLength);
  return file;
}

/** What a form held: its first `pdf` file, the names of its parts, and whether its first `pdf` part was text. */
interface ReadForm {
  file: PdfFile | undefined;
  names: string[];
  pdfIsText: boolean;
}

/**
 * A multipart parser fed chunk by chunk; `end()` answers what the form held, or the 400 of a form that is not
 * one. After a parse error the rest of the body is still taken (and dropped), so the connection stays usable.
 */
async function formReader(
  type: string,
  capacity: number,
): Promise<{ write(chunk: Uint8Array): void; end(): Promise<ReadForm> }> {
  const { Busboy } = await import('./busboy.js');
  const parser = Busboy({ headers: { 'content-type': type } });
  const names = new Set<string>();
  let first: 'file' | 'text' | undefined;
  let copy: FileCopy | undefined;
  let failed = false;
  const finished = new Promise<void>((resolve, reject) => {
    parser.on('finish', resolve);
    parser.on('error', (error) => {
      failed = true;
      reject(error);
    });
  });
  finished.catch(() => undefined);
  parser.on('file', (name, stream) => {
    names.add(name);
    // A part cut short errors on its own stream as well as on the parser; the parser's error answers the 400,
    // and a stream without a listener would throw it out of the process.
    stream.on('error', () => undefined);
    if (name !== 'pdf' || first !== undefined) {
      stream.resume();
      return;
    }
    first = 'file';
    const into = new FileCopy(capacity);
    copy = into;
    stream.on('data', (chunk: Buffer) => into.add(chunk));
  });
  parser.on('field', (name) => {
    names.add(name);
    if (name === 'pdf') first ??= 'text';
  });
  return {
    write(chunk) {
      if (!failed) parser.write(chunk);
    },
    async end() {
      if (!failed) parser.end();
      try {
        await finished;
      } catch {
        throw ApiError.badRequest(
          'Request body is not valid multipart/form-data (check the boundary and that the body is complete)',
        );
      }
      return {
        file: copy?.file(),
        names: [...names],
        pdfIsText: first === 'text',
      };
    },
  };
}

/**
 * The form's `pdf` file, copied into one buffer as it comes (`capacity`: the body's length when declared, which bounds
 * it; else a first guess that doubles as needed) and hashed along the way: not gathered in pieces and joined at the
 * end, since joining 5 MB was a stall of its own.
 */
class FileCopy {
  private bytes: Buffer;
  private size = 0;
  private readonly hash = createHash('sha256');

  constructor(capacity: number) {
    this.bytes = Buffer.allocUnsafe(capacity);
  }

  add(chunk: Buffer): void {
    if (this.size + chunk.byteLength > this.bytes.byteLength) {
      const grown = Buffer.allocUnsafe(Math.max(2 * this.bytes.byteLength, this.size + chunk.byteLength));
      this.bytes.copy(grown, 0, 0, this.size);
      this.bytes = grown;
    }
    chunk.copy(this.bytes, this.size);
    this.size += chunk.byteLength;
    this.hash.update(chunk);
  }

  /** The bytes copied (a view on the buffer, not a copy of it) and their SHA-256. */
  file(): PdfFile {
    return {
      bytes: new Uint8Array(this.bytes.buffer, this.bytes.byteOffset, this.size),
      sha256: this.hash.digest('hex'),
    };
  }
}

function tooLarge(maxFile: number, size?: number): ApiError {
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  return new ApiError(
    413,
    `The file is larger than the upload limit of ${maxFile} bytes (${mb(maxFile)})${size ? `: it is ${size} bytes` : ''}; start the sandbox with --max-upload to change it`,
  );
}

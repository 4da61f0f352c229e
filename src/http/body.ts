/**
 * Reads a JSON request body defensively: content type, size limit, syntax and shape are each answered with
 * their own clear 4xx instead of reaching a handler.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { ApiError } from '../core/errors.js';
import { type RequestBody, type RequestEnv, bodyFacts } from '../domain/request-facts.js';
import { isPublicOperation } from '../resources/public-operations.js';
import { checkJsonShape } from './json-shape.js';
import { nodeRequest } from './connection.js';

/**
 * `emptyAs`: what an empty body means (the control API takes no body as `{}`); without it an empty body is a 400.
 * `anyShape`: no limit on the body's structure (http/json-shape.ts); only the snapshot restore, a bulk operation
 * by design (docs/persistence.md), takes it.
 */
export async function readJsonObject(
  c: Context,
  maxBytes: number,
  options: { emptyAs?: Record<string, unknown>; anyShape?: boolean } = {},
): Promise<Record<string, unknown>> {
  const read = await readRequestBody(c, maxBytes);
  const { text } = read;
  if (text.trim() === '' && options.emptyAs) return options.emptyAs;
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i.test(type)) {
    throw new ApiError(415, `Content-Type must be application/json (got ${type ? `"${type.slice(0, 100)}"` : 'none'})`);
  }
  if (text.trim() === '') throw ApiError.badRequest('Request body is empty; send a JSON object');
  if (read.shapeRefusal && !options.anyShape) throw read.shapeRefusal;
  let body = read.json;
  if (body === undefined) {
    try {
      body = JSON.parse(text);
    } catch (error) {
      const reason = error instanceof SyntaxError ? error.message : 'it could not be parsed';
      throw ApiError.badRequest(`Request body is not valid JSON: ${reason}`);
    }
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw ApiError.badRequest(`Request body must be a JSON object, not ${describe(body)}`);
  }
  return body as Record<string, unknown>;
}

/**
 * The body read and parsed as JSON once (the travel object's `RequestBody`, domain/request-facts.ts): the API-faults
 * gate and the route ask for it, whichever comes first reads it, the other finds it in `c.var.body`. Not JSON is not
 * refused here (`json` is undefined): the route refuses it in its own words, the faults gate matches on what it can.
 */
export async function readRequestBody(c: Context, maxBytes: number): Promise<RequestBody> {
  return (c as Context<RequestEnv>).get('body') ?? keepBody(c, await readBodyText(c, maxBytes));
}

/**
 * The travel object's body once the stream is no reader's to read: the one a reader made, else made now from the text
 * read so far (none: an empty body, a GET, an upload read as a file, a body over the limit). The `drain` stage makes
 * it for a request no route read (a 404, a 429, a fault's refusal), so the journal and the request events read the
 * same operation and tenant as every other request's; a route that reads no JSON body (a GET, the document
 * endpoints) asks for it to build its operation's context (http/auth.ts).
 */
export function requestBody(c: Context): RequestBody {
  const vars = c as Context<RequestEnv>;
  return vars.get('body') ?? keepBody(c, vars.get('bodyText') ?? '');
}

/** The travel object's body from the whole text: its shape checked, parsed, its operation and tenant worked out. */
function keepBody(c: Context, text: string): RequestBody {
  const vars = c as Context<RequestEnv>;
  let shapeRefusal: ApiError | undefined;
  try {
    checkJsonShape(text);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    shapeRefusal = error;
  }
  let json: unknown;
  if (!shapeRefusal && text !== '') {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  const body = bodyFacts(vars.get('services'), vars.get('request'), {
    text,
    json,
    shapeRefusal,
    query: () => c.req.query(),
    publicOperation: isPublicOperation(c.req.method, c.req.path, json),
  });
  vars.set('body', body);
  return body;
}

/**
 * The body as text, refused with 413 past `maxBytes` (declared or counted) and with 400 when the client cuts
 * the upload off. A leading byte-order mark is dropped: editors and some HTTP clients add one, and it carries
 * no meaning in JSON or YAML. The text is kept in the request's variables (`c.var.bodyText`), so a second reader (the
 * router after the API faults middleware, the request journal) gets it without reading the body again.
 */
export async function readBodyText(c: Context, maxBytes: number): Promise<string> {
  // Any app's context: the control routes and pages are plain Hono apps mounted in the one app (http/app.ts).
  const vars = c as Context<RequestEnv>;
  const kept = vars.get('bodyText');
  if (kept !== undefined) return kept;
  const request = c.req.raw;
  const length = request.headers.get('content-length');
  const declared = length === null ? NaN : Number(length);
  if (Number.isFinite(declared) && declared > maxBytes) return refuseUnread(request, declared, tooLarge(maxBytes));
  // With a declared length (checked above) the body cannot exceed it, so it is read in one go: on
  // @hono/node-server that reads the socket directly instead of building a web stream per request.
  let text: string;
  if (Number.isFinite(declared)) {
    try {
      text = await request.text();
    } catch {
      throw cutOff();
    }
  } else text = await readText(request, maxBytes);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  vars.set('bodyText', text);
  return text;
}

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError(413, `Request body is larger than the limit of ${maxBytes} bytes`);
}

/** The client closed the connection mid-body: its fault, not ours, and nobody is left to read the answer. */
function cutOff(): ApiError {
  return ApiError.badRequest('Request body was cut off before its end');
}

async function readText(request: Request, maxBytes: number): Promise<string> {
  return (await readBytes(request, maxBytes, () => tooLarge(maxBytes))).toString('utf8');
}

/**
 * How much of a refused body is read and thrown away before the refusal leaves (docs/errors.md, "Every client
 * reads a refusal"). A client sending a body reads no answer until it has sent it all (Node's fetch, Python's
 * urllib) or dies with EPIPE when the server closes first; so a body over a limit is read to its end, discarded,
 * and the 413 (or any refusal) follows on a connection that stays open. Past this many bytes the sandbox stops
 * reading, answers with `Connection: close` and closes.
 */
export const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * Throws `refusal` once the body, `declared` bytes long (NaN: not said), has been read and discarded up to
 * DRAIN_LIMIT_BYTES; one declared longer than that is not read at all (the connection closes behind the answer).
 */
export async function refuseUnread(request: Request, declared: number, refusal: ApiError): Promise<never> {
  if (!(declared > DRAIN_LIMIT_BYTES) && request.body && !request.bodyUsed) await discard(webChunks(request), 0);
  throw refusal;
}

/** Reads and drops a body nobody will read, up to DRAIN_LIMIT_BYTES: a socket closed on unread bytes is reset. */
export async function discardBody(request: Request): Promise<void> {
  if (request.body && !request.bodyUsed) await discard(webChunks(request), 0);
}

/** The next chunk of a body, undefined at its end; throws when the client cut it off. */
export type ChunkSource = () => Promise<Uint8Array | undefined>;

/** A body's chunks through the web Request's stream. */
export function webChunks(request: Request): ChunkSource {
  const reader = request.body?.getReader();
  return async () => {
    const chunk = await reader?.read();
    return chunk?.done === false ? chunk.value : undefined;
  };
}

/** The most a chunk of nodeChunks holds: a larger one would be parsed in one go, however much had arrived. */
const NODE_CHUNK_BYTES = 64 * 1024;

/**
 * A body's chunks straight from Node's request, when the server is @hono/node-server's and nothing has read the body
 * yet, each at most NODE_CHUNK_BYTES (Node's own async iterator hands over everything buffered, joined: megabytes at
 * once when the event loop was busy, then parsed in one turn). No web stream in between, whose adapters cost more
 * than the parse itself for an upload.
 */
export function nodeChunks(c: Context): ChunkSource | undefined {
  const incoming = nodeRequest(c);
  if (!incoming || incoming.readableDidRead || incoming.readableEnded) return undefined;
  return () =>
    new Promise<Uint8Array | undefined>((resolve, reject) => {
      const attempt = () => {
        const size = Math.min(NODE_CHUNK_BYTES, incoming.readableLength);
        const chunk = size > 0 ? (incoming.read(size) as Buffer | null) : incoming.read();
        if (chunk) return done(() => resolve(chunk));
        if (incoming.readableEnded) return done(() => resolve(undefined));
      };
      const onEnd = () => done(() => resolve(undefined));
      const onClose = () => done(() => (incoming.readableEnded ? resolve(undefined) : reject(new Error('cut off'))));
      const done = (settle: () => void) => {
        incoming.off('readable', attempt);
        incoming.off('end', onEnd);
        incoming.off('error', onClose);
        incoming.off('close', onClose);
        settle();
      };
      incoming.on('readable', attempt);
      incoming.on('end', onEnd);
      incoming.on('error', onClose);
      incoming.on('close', onClose);
      attempt();
    });
}

/** Reads and drops the rest of a body until its end or DRAIN_LIMIT_BYTES in all (`read` already counted). */
async function discard(next: ChunkSource, read: number): Promise<void> {
  let size = read;
  while (size <= DRAIN_LIMIT_BYTES) {
    const chunk = await next().catch(() => undefined);
    if (!chunk) return;
    size += chunk.byteLength;
  }
}

/**
 * The body's bytes as they stream in, refused with `tooBig()` once past `maxBytes` (the rest read and dropped up to
 * DRAIN_LIMIT_BYTES, so the refusal reaches the client) and with 400 when the client cuts the upload off (the JSON
 * bodies above).
 */
export async function readBytes(request: Request, maxBytes: number, tooBig: () => ApiError): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  await readChunks(webChunks(request), maxBytes, tooBig, (chunk) => {
    chunks.push(chunk);
  });
  return Buffer.concat(chunks);
}

/** Hands a body to `take` a chunk at a time as it streams in, with the limits of readBytes. */
export async function readChunks(
  next: ChunkSource,
  maxBytes: number,
  tooBig: () => ApiError,
  take: (chunk: Uint8Array) => void | Promise<void>,
): Promise<void> {
  let size = 0;
  for (;;) {
    let chunk: Uint8Array | undefined;
    try {
      chunk = await next();
    } catch {
      throw cutOff();
    }
    if (!chunk) return;
    size += chunk.byteLength;
    if (size > maxBytes) {
      // Not cancelled: cancelling the stream destroys the socket, and the client never reads the 413.
      await discard(next, size);
      throw tooBig();
    }
    await take(chunk);
  }
}

/** A control API body (/__sandbox): JSON like the API's, but an empty body means `{}`. */
export function controlJson(c: Context, maxBytes: number): Promise<Record<string, unknown>> {
  return readJsonObject(c, maxBytes, { emptyAs: {} });
}

/**
 * Reads the body of a request answered without reading it (a 404, a 405, a 403 or a 501 to a POST, a refusal over
 * a limit) before the answer leaves, so the connection stays usable: the client's next request on it starts after
 * that body, and a client still sending reads the answer instead of dying with EPIPE. Left unread, the body would
 * sit in the socket; the server's own clean-up gives it 500 ms and then closes the connection, and a pooled
 * client's next request on it dies without an answer. A body within `maxBytes` is kept like any body read (the
 * journal shows it); a larger one is discarded up to DRAIN_LIMIT_BYTES. Only past that, or when a reader gave up
 * on it half-read, does the answer say `Connection: close`. Then the travel object's body is made from what was
 * read when no route made it (`requestBody`): the journal and the request events, around this stage, read it.
 */
export function readUnreadBody(maxBytes: number): MiddlewareHandler<RequestEnv> {
  return async (c, next) => {
    await next();
    await readUnread(c, maxBytes);
    requestBody(c);
  };
}

async function readUnread(c: Context<RequestEnv>, maxBytes: number): Promise<void> {
  const incoming = nodeRequest(c);
  // No length and no chunks: the request has no body (RFC 9112 §6.3), so there is nothing to read. Asking
  // would build the web Request's body stream for every GET: a fifth of the server's CPU on the health route.
  const length = incoming?.headers['content-length'];
  if (incoming && (length === undefined || length === '0') && incoming.headers['transfer-encoding'] === undefined)
    return;
  if (c.get('bodyText') !== undefined) return;
  if (incoming === undefined) {
    // In process (app.request) there is no connection to keep; the body is read for the journal only.
    if (c.req.raw.body && !c.req.raw.bodyUsed) await readBodyText(c, maxBytes).catch(() => undefined);
    return;
  }
  if (incoming.readableEnded || incoming.destroyed) return;
  if (!incoming.readableDidRead) await readBodyText(c, maxBytes).catch(() => undefined);
  if (!incoming.readableEnded && !incoming.destroyed) c.res.headers.set('Connection', 'close');
}

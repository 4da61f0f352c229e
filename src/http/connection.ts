/**
 * The connection under a request, for the API faults that break it instead of answering (docs/scenarios.md,
 * "Connection faults"): the one place the app reaches below the web Request and Response.
 *
 * On a port, @hono/node-server hands each request Node's `incoming` and `outgoing` as its bindings (`c.env`): the
 * socket is `outgoing.socket`. Once a fault has reset, ended or destroyed it, nothing Node's ServerResponse is asked to
 * write afterwards reaches the wire (it writes only to a writable socket), so the app answers as usual and no byte of
 * that answer leaves. In process (`Sandbox.fetch`, esign-sandbox/msw) there is no socket: the door's own bindings
 * (`InProcessEnv`) carry the break back to the caller, which rejects as Node's `fetch` would on a port. In a team
 * sandbox, a request another replica forwarded gets an answer saying which break to make (`BREAK_HEADER`), and that
 * replica breaks its own client's connection so (team/forward.ts): the connection between replicas stays whole.
 */
import { type IncomingMessage, STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { constants } from 'node:os';
import type { Context } from 'hono';
import type { BrokenConnection } from '../api-faults/registry.js';

/** Marks a request one replica forwarded to another (team/forward.ts). */
export const FORWARDED_HEADER = 'x-esign-sandbox-forwarded';
/** On the answer to a forwarded request: the connection fault the forwarding replica makes on its client's connection. */
export const BREAK_HEADER = 'x-esign-sandbox-break';

/** The bindings of a request handed to the app in process: what happened to its connection comes back on them. */
export interface InProcessEnv {
  readonly inProcess: true;
  broken?: BrokenConnection;
}

/** Fresh bindings for one in-process request. */
export function inProcessEnv(): InProcessEnv {
  return { inProcess: true };
}

export function isInProcess(env: unknown): env is InProcessEnv {
  return (env as InProcessEnv | undefined)?.inProcess === true;
}

/** Node's request under this one when the app runs on a port (undefined in process). */
export function nodeRequest(c: Context): IncomingMessage | undefined {
  return (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
}

function socketOf(c: Context): Socket | undefined {
  return (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing?.socket ?? undefined;
}

/**
 * The answer handed back to Hono once the connection is broken: node-server is told it was sent already; the journal
 * reads the fault's id from it.
 */
function sentNothing(fault: string, status = 200): Response {
  return new Response(null, { status, headers: { 'x-hono-already-sent': 'true', 'x-sandbox-fault': fault } });
}

/**
 * Breaks the connection as `broken` says: `reset` (a TCP reset), `empty` (closed, no byte sent), `garbage` (its
 * bytes, then closed). The answer it returns sends nothing. In process, the caller of the in-process door is told.
 */
export function breakConnection(c: Context, broken: BrokenConnection): Response {
  const socket = socketOf(c);
  if (!socket) {
    if (isInProcess(c.env)) c.env.broken = broken;
    return sentNothing(broken.fault);
  }
  if (forwarded(c))
    return new Response(broken.bytes ?? null, {
      headers: { [BREAK_HEADER]: broken.kind, 'x-sandbox-fault': broken.fault },
    });
  breakSocket(socket, broken.kind, broken.bytes);
  return sentNothing(broken.fault);
}

/** Ends `socket` as the fault `kind` (not `malformed-chunk`) does: a reset, a close, or `bytes` then a close. */
export function breakSocket(socket: Socket, kind: BrokenConnection['kind'], bytes?: Uint8Array): void {
  if (kind === 'reset') reset(socket);
  else socket.end(bytes ?? '');
}

function forwarded(c: Context): boolean {
  return nodeRequest(c)?.headers[FORWARDED_HEADER] !== undefined;
}

/**
 * The real answer with its chunked body broken mid-way: its status and headers, the first half of its body as a
 * chunk, then a chunk-size line that is not hexadecimal, and the connection closed. In process, the answer whose body
 * fails after that half with the error Node's `fetch` meets on a port.
 */
export async function breakMidBody(c: Context, answer: Response, fault: string): Promise<Response> {
  const socket = socketOf(c);
  if (socket && forwarded(c)) {
    const headers = new Headers(answer.headers);
    headers.set(BREAK_HEADER, 'malformed-chunk');
    return new Response(answer.body, { status: answer.status, headers });
  }
  const body = new Uint8Array(await answer.arrayBuffer());
  if (!socket) return halfThenError(answer, body.subarray(0, Math.ceil(body.byteLength / 2)), fault);
  breakMidChunk(socket, answer.status, answer.headers, body);
  return sentNothing(fault, answer.status);
}

/** Sends `status`, `headers` and the first half of `body` as a chunk, then a chunk-size line that is not hexadecimal. */
export function breakMidChunk(
  socket: Socket,
  status: number,
  headers: Iterable<[string, string]>,
  body: Uint8Array,
): void {
  const half = body.subarray(0, Math.ceil(body.byteLength / 2));
  const head = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`];
  for (const [name, value] of headers)
    if (
      !['content-length', 'transfer-encoding', 'connection', 'x-hono-already-sent', BREAK_HEADER].includes(
        name.toLowerCase(),
      )
    )
      head.push(`${name}: ${value}`);
  head.push('transfer-encoding: chunked', 'connection: close', '', '');
  const chunk = half.byteLength > 0 ? [`${half.byteLength.toString(16)}\r\n`, half, '\r\n'] : [];
  socket.end(Buffer.concat([head.join('\r\n'), ...chunk, 'zz\r\n'].map((part) => Buffer.from(part))));
}

function halfThenError(answer: Response, half: Uint8Array, fault: string): Response {
  const headers = new Headers(answer.headers);
  headers.delete('content-length');
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (half.byteLength > 0) controller.enqueue(half);
    },
    pull(controller) {
      controller.error(new TypeError('terminated', { cause: wireError('malformed-chunk', fault) }));
    },
  });
  return new Response(body, { status: answer.status, headers });
}

/**
 * A TCP reset. Under TLS (--tls) Node's public API has no reset (the socket's handle is TLS, not TCP): the connection
 * is destroyed without TLS's close_notify instead (docs/errors.md, "Connection faults").
 */
function reset(socket: Socket): void {
  try {
    socket.resetAndDestroy();
  } catch {
    socket.destroy();
  }
}

/**
 * What `fetch` on a port meets for each fault: its cause, with Node's code, so error handling runs the same path.
 * `errno` as a system error carries it (a reset's is -ECONNRESET; undici's own errors have none): with `code`, it
 * marks the error as Node's for @mswjs/interceptors, which fails the intercepted request with it (msw.ts).
 */
const WIRE_ERRORS: Record<BrokenConnection['kind'], { code: string; message: string; errno?: number }> = {
  reset: { code: 'ECONNRESET', message: 'read ECONNRESET', errno: -constants.errno.ECONNRESET },
  empty: { code: 'UND_ERR_SOCKET', message: 'other side closed' },
  garbage: { code: 'HPE_INVALID_CONSTANT', message: 'Response does not match the HTTP/1.1 protocol (Expected HTTP/)' },
  'malformed-chunk': {
    code: 'HPE_INVALID_CHUNK_SIZE',
    message: 'Response does not match the HTTP/1.1 protocol (Invalid character in chunk size)',
  },
};

/** The error a broken connection stands for: a message naming the fault, Node's `code`, and `errno` (see above). */
export interface WireError extends Error {
  code: string;
  errno: number | undefined;
}

function wireError(kind: BrokenConnection['kind'], fault: string): WireError {
  const { code, message, errno } = WIRE_ERRORS[kind];
  return Object.assign(new Error(`${message} (esign-sandbox API fault ${JSON.stringify(fault)})`), { code, errno });
}

/** The broken connection a rejection of the in-process door stands for, if it is one. */
export function wireErrorOf(error: unknown): WireError | undefined {
  if (!(error instanceof TypeError) || !(error.cause instanceof Error)) return undefined;
  const cause = error.cause as Partial<WireError>;
  return typeof cause.code === 'string' && 'errno' in cause ? (cause as WireError) : undefined;
}

/** The rejection of an in-process request whose connection a fault broke: Node's `fetch failed`, with its cause. */
export function networkError(broken: BrokenConnection): TypeError {
  return new TypeError('fetch failed', { cause: wireError(broken.kind, broken.fault) });
}

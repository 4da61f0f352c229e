/**
 * Requests refused before they reach the app. Those Node's HTTP parser rejects (broken framing, a content-length
 * that disagrees with the bytes sent, oversized headers), those with a missing, empty or repeated Host header and
 * those whose path holds a dot segment (http/request-path.ts) still get the service's JSON error body instead of Node's bare `400 Bad Request`, then the connection is closed:
 * after a framing error nothing more on it can be trusted.
 */
import { errorJson } from '../core/errors.js';
import type { IncomingMessage, RequestListener, Server, ServerOptions, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { hostHeaderProblem } from './hosts.js';
import { requestPathProblem } from './request-path.js';

type CreateServer = (options: ServerOptions, listener: RequestListener) => Server;

/**
 * Wraps a server factory (node:http's or node:https's `createServer`) so every request's Host header and path are
 * checked before @hono/node-server sees them: it would answer a missing Host with an empty 400, an empty one by
 * substituting the bind address, and resolve a path's dot segments. Node's own Host check is off, since it answers
 * with an empty body.
 */
export function checkingHead<Create>(create: Create): Create {
  // @hono/node-server calls the factory with (options, listener), node:http's and node:https's shape alike.
  const checked: CreateServer = (options, listener) =>
    (create as CreateServer)({ ...options, requireHostHeader: false }, (request, response) => {
      const problem = hostHeaderProblem(request) ?? requestPathProblem(request.url);
      if (problem === undefined) listener(request, response);
      else answerJson(response, 400, problem);
    });
  return checked as Create;
}

function answerJson(response: ServerResponse, status: number, message: string): void {
  const body = errorJson(status, message);
  response.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    Connection: 'close',
  });
  response.end(body);
}

export function answerClientError(error: NodeJS.ErrnoException & { bytesParsed?: number }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'Request headers are too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'Request was not received in time']
        : [
            400,
            'Bad Request',
            `Malformed HTTP request (${error.code ?? 'parse error'}); check the request line, headers and Content-Length`,
          ];
  const body = errorJson(status, message);
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * A request with an `Expect` header other than `100-continue`: node answers 417 with an empty body unless told
 * otherwise; the sandbox answers 417 in the service's JSON error format, naming the header.
 */
export function answerExpectation(request: IncomingMessage, response: ServerResponse): void {
  const expect = String(request.headers.expect ?? '').slice(0, 60);
  answerJson(
    response,
    417,
    `Expect: ${expect} cannot be met; send the request without an Expect header, or with Expect: 100-continue`,
  );
}

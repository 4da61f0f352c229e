/**
 * A follower's way to the leader (docs/team-sandbox.md): the request as it came (method, path, headers with the
 * original Host and Origin, body streamed) to the leader's address, and the leader's answer back as it left. The
 * request's body is not read until the leader's connection is open, so a leader that cannot be reached can be asked
 * again (or another one, once elected) without losing a byte.
 */
import { Agent, type IncomingMessage, type ServerResponse, request } from 'node:http';
import type { Socket } from 'node:net';
import { Transform } from 'node:stream';
import type { BrokenConnection } from '../api-faults/registry.js';
import { BREAK_HEADER, FORWARDED_HEADER, breakMidChunk, breakSocket } from '../http/connection.js';

/** Marks a request one replica forwarded to another: a replica that is not the leader any more never forwards it on. */
export { FORWARDED_HEADER };
/** Marks the 503 of a replica that was asked as the leader but does not lead (any more). */
export const NOT_LEADER_HEADER = 'x-esign-sandbox-not-leader';

/** Headers that concern one connection only, never forwarded either way. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'upgrade']);

/**
 * `answered`: the leader's answer went back. `unreachable`: nothing reached a leader and nothing of the request was
 * read, so it may be asked again. `stale`: the replica asked does not lead any more and the request's body was
 * already sent to it: its 503 went back, and the caller should look for the leader again.
 */
export type Forwarded = 'answered' | 'unreachable' | 'stale';

/** One keep-alive pool of connections from this replica to the leader. */
export function forwardingAgent(): Agent {
  return new Agent({ keepAlive: true, maxSockets: 64 });
}

/**
 * Sends the request to `leader` and its answer back. `unreachable`: the leader could not be reached before a byte of
 * the request's body was read (a kept-alive connection to a leader that died fails only once used), and the caller
 * may try again; past that the answer is the leader's (a connection cut in the middle ends the answer cut short, as
 * it would have between the client and the leader).
 */
export function forward(req: IncomingMessage, res: ServerResponse, leader: URL, agent: Agent): Promise<Forwarded> {
  return new Promise((resolve) => {
    const headers: Record<string, string | string[]> = { [FORWARDED_HEADER]: '1' };
    for (const [name, value] of Object.entries(req.headers))
      if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
    let bodyBytes = 0;
    let answered = false;
    const out = request({
      host: leader.hostname,
      port: leader.port,
      method: req.method,
      path: req.url,
      headers,
      agent,
      setHost: false,
    });
    out.on('socket', (socket) => {
      const send = () => {
        const counted = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            bodyBytes += chunk.length;
            done(null, chunk);
          },
        });
        // A body already read to its end (none, or a retry's) has nothing left to stream.
        if (req.readableEnded) out.end();
        else req.pipe(counted).pipe(out);
      };
      if (socket.connecting) socket.once('connect', send);
      else if (out.reusedSocket) afterPendingCloses(socket, send);
      else send();
    });
    out.on('response', (answer) => {
      answered = true;
      if (answer.headers[BREAK_HEADER] !== undefined) return resolve(breakAsLeader(answer, res));
      if (answer.headers[NOT_LEADER_HEADER] !== undefined && bodyBytes === 0) {
        answer.resume();
        req.unpipe();
        return resolve('unreachable');
      }
      const stale = answer.headers[NOT_LEADER_HEADER] !== undefined;
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer).flat());
      answer.pipe(res);
      answer.on('error', () => res.destroy());
      resolve(stale ? 'stale' : 'answered');
    });
    out.on('error', () => {
      if (!answered && bodyBytes === 0) {
        req.unpipe();
        return resolve('unreachable');
      }
      // Cut off after the request had started to go: the client sees its connection end, as with the leader itself.
      res.destroy();
      resolve('answered');
    });
    req.on('aborted', () => out.destroy());
  });
}

/**
 * A kept-alive connection to a leader that was killed is closed already, but this replica may not have read that yet
 * when a request picks it from the pool: the close can be waiting in the same turn of the event loop as the request,
 * or have come while the request was being handled. `send` runs once the input of this turn and of the next has been
 * read; a connection found closed by then gets nothing of the request's body (its request fails `unreachable`, and is
 * asked again of the leader, on a new connection), rather than the body going to a dead peer and the client's
 * connection being cut.
 */
function afterPendingCloses(socket: Socket, send: () => void): void {
  setImmediate(() =>
    setImmediate(() => {
      if (!socket.destroyed) send();
    }),
  );
}

/** The answer's headers as they came (names as written), but for those of one connection only. */
function endToEnd(answer: IncomingMessage): [string, string][] {
  const headers: [string, string][] = [];
  for (let i = 0; i + 1 < answer.rawHeaders.length; i += 2)
    if (!HOP_BY_HOP.has(answer.rawHeaders[i]!.toLowerCase()))
      headers.push([answer.rawHeaders[i]!, answer.rawHeaders[i + 1]!]);
  return headers;
}

/**
 * A connection fault the leader applied to a request this replica forwarded (http/connection.ts, `BREAK_HEADER`):
 * this replica breaks its own client's connection the same way, so the client meets the fault's kind, not a cut.
 */
function breakAsLeader(answer: IncomingMessage, res: ServerResponse): 'answered' {
  const kind = String(answer.headers[BREAK_HEADER]) as BrokenConnection['kind'];
  const chunks: Buffer[] = [];
  answer.on('data', (chunk: Buffer) => chunks.push(chunk));
  answer.on('error', () => res.destroy());
  answer.on('end', () => {
    const socket = res.socket;
    if (!socket) return void res.destroy();
    const body = Buffer.concat(chunks);
    if (kind === 'malformed-chunk') breakMidChunk(socket, answer.statusCode ?? 200, endToEnd(answer), body);
    else breakSocket(socket, kind, body.byteLength > 0 ? body : undefined);
  });
  return 'answered';
}

/**
 * One keep-alive connection driven by hand (node:net), for what an HTTP client library hides: several requests in
 * sequence on one socket, pipelined bytes, headers no client sends. Answers are parsed just enough to tell them apart.
 */
import { type Socket, connect } from 'node:net';

export interface RawAnswer {
  status: number;
  /** Header names lower case; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: string;
}

export class RawConnection {
  private buffer = Buffer.alloc(0);
  private waiting: (() => void) | undefined;
  closed = false;
  /** How many pieces the bytes came in (one per `data` event). */
  pieces = 0;
  /** The code of the socket's error, when it met one (`ECONNRESET` for a reset). */
  error: string | undefined;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.pieces++;
      this.waiting?.();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      this.error = error.code;
    });
    socket.on('close', () => {
      this.closed = true;
      this.waiting?.();
    });
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  write(bytes: string | Buffer): void {
    this.socket.write(bytes);
  }

  /**
   * The next whole answer (Content-Length or chunked framing), or undefined when the server closed first. It waits
   * as long as that takes (the test's own time-out bounds it): how long an answer takes is the machine's business.
   */
  async answer(): Promise<RawAnswer | undefined> {
    for (;;) {
      const parsed = this.parse();
      if (parsed) return parsed;
      if (this.closed) return undefined;
      await this.next();
    }
  }

  /** Resolves once the server has closed the connection, having answered everything it sent before. */
  async closes(): Promise<void> {
    while (!this.closed) await this.next();
  }

  /** Waits for the close and gives every byte received and not parsed as an answer. */
  async bytesUntilClose(): Promise<Buffer> {
    await this.closes();
    return this.buffer;
  }

  /** The next bytes or the close. */
  private next(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.waiting = () => {
        this.waiting = undefined;
        resolve();
      };
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private parse(): RawAnswer | undefined {
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    const head = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
    const status = Number(head[0]!.split(' ')[1]);
    const headers: Record<string, string> = {};
    for (const line of head.slice(1)) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
    }
    let rest = this.buffer.subarray(end + 4);
    let body: Buffer;
    if (headers['transfer-encoding'] === 'chunked') {
      const parts: Buffer[] = [];
      for (;;) {
        const line = rest.indexOf('\r\n');
        if (line < 0) return undefined;
        const size = Number.parseInt(rest.subarray(0, line).toString('latin1'), 16);
        if (rest.length < line + 2 + size + 2) return undefined;
        parts.push(rest.subarray(line + 2, line + 2 + size));
        rest = rest.subarray(line + 2 + size + 2);
        if (size === 0) break;
      }
      body = Buffer.concat(parts);
    } else {
      const length = Number(headers['content-length'] ?? 0);
      if (rest.length < length) return undefined;
      body = rest.subarray(0, length);
      rest = rest.subarray(length);
    }
    this.buffer = rest;
    return { status, headers, body: body.toString('utf8') };
  }
}

/** A request as bytes: a JSON body gets its Content-Length; `headers` may repeat a name (an array of pairs). */
export function rawRequest(
  method: string,
  path: string,
  body = '',
  headers: [string, string][] = [['Host', 'localhost']],
): string {
  const lines = [`${method} ${path} HTTP/1.1`, ...headers.map(([n, v]) => `${n}: ${v}`)];
  if (body !== '') lines.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`);
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

/**
 * HTTPS, as the real service is HTTPS-only (docs/compatibility.md). `--tls` generates a self-signed certificate at
 * start (with the `selfsigned` library) and writes it to a temp folder, so a client can trust it through
 * NODE_EXTRA_CA_CERTS; `--tls-cert`/`--tls-key` bring your own.
 *
 * One port serves both kinds of caller: the first byte of a connection tells a TLS handshake (0x16) from plain
 * HTTP. TLS goes to the HTTPS server; plain HTTP gets a JSON 403 saying to use https (docs/errors.md) rather than
 * a dropped connection, which a client would report as an unhelpful socket error.
 */
import { errorJson } from '../core/errors.js';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { answerClientError, answerExpectation, checkingHead } from './client-error.js';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, type Server, type Socket, createServer as createNetServer, isIP } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import type { Hono } from 'hono';
import { ConfigError } from '../config/options.js';
import { wallNow } from '../core/wall-time.js';

export interface TlsMaterial {
  cert: string;
  key: string;
  /** Where the certificate is on disk: give it to NODE_EXTRA_CA_CERTS (or curl --cacert). */
  certFile: string;
  keyFile?: string;
  /** True when the sandbox made the certificate itself. */
  generated: boolean;
  /** A folder the sandbox made for the files, removed on close. */
  tempDir?: string;
}

/** Removes the files the sandbox wrote (a generated certificate is of no use once the sandbox is gone). */
export function disposeTls(tls: TlsMaterial): void {
  if (tls.tempDir) rmSync(tls.tempDir, { recursive: true, force: true });
}

const TLS_HANDSHAKE = 0x16;

/** A PEM value or a path to one. */
function pemOrFile(value: string, what: string): { pem: string; file?: string } {
  if (value.trimStart().startsWith('-----BEGIN')) return { pem: value };
  try {
    return { pem: readFileSync(value, 'utf8'), file: value };
  } catch (error) {
    throw new ConfigError(`Cannot read the TLS ${what} ${value}: ${(error as Error).message}`);
  }
}

export async function loadTls(options: {
  cert?: string | undefined;
  key?: string | undefined;
  host: string;
}): Promise<TlsMaterial> {
  if (options.cert !== undefined || options.key !== undefined) {
    if (options.cert === undefined || options.key === undefined)
      throw new ConfigError('--tls-cert and --tls-key go together: give both');
    const cert = pemOrFile(options.cert, 'certificate');
    const key = pemOrFile(options.key, 'key');
    if (cert.file)
      return {
        cert: cert.pem,
        key: key.pem,
        certFile: cert.file,
        ...(key.file ? { keyFile: key.file } : {}),
        generated: false,
      };
    const tempDir = mkdtempSync(join(tmpdir(), 'esign-sandbox-tls-'));
    const certFile = join(tempDir, 'cert.pem');
    writeFileSync(certFile, cert.pem);
    return {
      cert: cert.pem,
      key: key.pem,
      certFile,
      ...(key.file ? { keyFile: key.file } : {}),
      generated: false,
      tempDir,
    };
  }
  return generateCertificate(options.host);
}

/** A self-signed certificate for localhost, 127.0.0.1, ::1 and the bound host, valid for a year. */
export async function generateCertificate(host: string): Promise<TlsMaterial> {
  const { generate } = await import('./selfsigned.js');
  const names = new Set(['localhost']);
  const ips = new Set(['127.0.0.1', '::1']);
  if (host !== '0.0.0.0' && host !== '::') (isIP(host) ? ips : names).add(host);
  const altNames = [
    ...[...names].map((value) => ({ type: 2 as const, value })),
    ...[...ips].map((ip) => ({ type: 7 as const, ip })),
  ];
  const pems = await generate([{ name: 'commonName', value: 'esign-sandbox local' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    // Clients check validity against their own clock, so the year counts from wall time, not sandbox time.
    notAfterDate: new Date(wallNow() + 365 * 86_400_000),
    extensions: [
      // Marked as its own CA so NODE_EXTRA_CA_CERTS accepts it as a trust anchor.
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames },
    ],
  });
  const dir = mkdtempSync(join(tmpdir(), 'esign-sandbox-tls-'));
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  writeFileSync(certFile, pems.cert);
  writeFileSync(keyFile, pems.private, { mode: 0o600 });
  return { cert: pems.cert, key: pems.private, certFile, keyFile, generated: true, tempDir: dir };
}

export interface TlsListener {
  address(): AddressInfo;
  close(): Promise<void>;
}

/** Listens on host:port, answering TLS with the app and plain HTTP with a 403. */
export function listenTls(
  app: Hono,
  host: string,
  port: number,
  tls: TlsMaterial,
  replaceGlobals: boolean,
  onError: (error: NodeJS.ErrnoException) => Error,
): Promise<TlsListener> {
  const https = createAdaptorServer({
    fetch: app.fetch,
    overrideGlobalObjects: replaceGlobals,
    createServer: checkingHead(createHttpsServer),
    serverOptions: { key: tls.key, cert: tls.cert },
  });
  https.on('checkExpectation', answerExpectation);
  https.on('clientError', answerClientError);
  const plain = createHttpServer((req, res) => {
    const where = `https://${req.headers.host ?? `${host}:${port}`}${req.url ?? '/'}`;
    const body = errorJson(403, `This sandbox serves HTTPS only, like the real service; use ${where}`);
    res.writeHead(403, {
      'content-type': 'application/json; charset=UTF-8',
      'content-length': Buffer.byteLength(body),
      connection: 'close',
    });
    res.end(body);
  });
  const sockets = new Set<Socket>();
  const front: Server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.once('data', (first: Buffer) => {
      socket.pause();
      socket.unshift(first);
      (first[0] === TLS_HANDSHAKE ? https : plain).emit('connection', socket);
      process.nextTick(() => socket.resume());
    });
  });
  // Handshake failures (a client that does not trust the certificate) are the client's business, not a crash.
  https.on('tlsClientError', (_error: unknown, socket: Socket) => socket.destroy());
  return new Promise((resolve, reject) => {
    const fail = (error: NodeJS.ErrnoException) => {
      front.close();
      reject(onError(error));
    };
    front.once('error', fail);
    front.listen(port, host, () => {
      front.off('error', fail);
      resolve({
        address: () => front.address() as AddressInfo,
        close: () =>
          new Promise<void>((done) => {
            front.close(() => done());
            for (const socket of sockets) socket.destroy();
            (https as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
          }),
      });
    });
  });
}

/**
 * The listener of one sandbox: its app served over HTTP or HTTPS on the configured host and port, refusals as
 * sentences naming the port or host, and a close that does not wait on keep-alive connections.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ServerType, createAdaptorServer } from '@hono/node-server';
import type { Hono } from 'hono';
import { ConfigError } from '../config/options.js';
import { answerClientError, answerExpectation, checkingHead } from '../http/client-error.js';
import { type TlsListener, type TlsMaterial, disposeTls, listenTls } from '../http/tls.js';

export interface Listener {
  /** Listens on `port` (0 = a free one); resolves with the port taken. */
  listen(): Promise<number>;
  /** Stops listening and releases the certificate. */
  close(): Promise<void>;
}

/** `replaceGlobals`: let @hono/node-server put its Request and Response in place of the process's (StartDefaults). */
export function createListener(
  app: Hono,
  host: string,
  port: number,
  tls: TlsMaterial | undefined,
  replaceGlobals: boolean,
): Listener {
  let server: ServerType | undefined;
  let tlsListener: TlsListener | undefined;
  return {
    async listen() {
      if (tls) {
        tlsListener = await listenTls(app, host, port, tls, replaceGlobals, (error) => listenError(error, host, port));
        return tlsListener.address().port;
      }
      server = await listenOn(app, host, port, replaceGlobals);
      return (server.address() as AddressInfo).port;
    },
    async close() {
      if (tlsListener) {
        const l = tlsListener;
        tlsListener = undefined;
        await l.close();
      }
      if (tls) disposeTls(tls);
      if (server) {
        const s = server;
        server = undefined;
        await new Promise<void>((resolve) => {
          s.close(() => resolve());
          // Keep-alive connections would hold close() open; the sandbox has nothing left to answer.
          (s as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
        });
      }
    },
  };
}

/** The host as it goes in a URL: a wildcard address becomes loopback, IPv6 gets brackets. */
export function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

function listenOn(app: Hono, host: string, port: number, replaceGlobals: boolean): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = createAdaptorServer({
      fetch: app.fetch,
      hostname: host,
      createServer: checkingHead(createServer),
      overrideGlobalObjects: replaceGlobals,
    });
    server.on('clientError', answerClientError);
    server.on('checkExpectation', answerExpectation);
    const onError = (error: NodeJS.ErrnoException) => {
      server.close();
      reject(listenError(error, host, port));
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve(server);
    });
  });
}

function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  if (error.code === 'EADDRINUSE')
    return new ConfigError(`Port ${port} on ${host} is already in use; pick another with --port (0 picks a free one)`);
  if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND')
    return new ConfigError(`Cannot listen on host ${host}: ${error.message}`);
  if (error.code === 'EACCES') return new ConfigError(`Not allowed to listen on port ${port}: ${error.message}`);
  return error;
}

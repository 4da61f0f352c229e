/**
 * esign-sandbox/msw: MSW request handlers that answer the service's host from a sandbox in the same process,
 * without a port, so code and SDKs keep their production URL (docs/library.md, "In process, with MSW").
 *
 *   import { setupServer } from 'msw/node';
 *   import { startSandbox } from 'esign-sandbox';
 *   import { handlers } from 'esign-sandbox/msw';
 *   const sandbox = await startSandbox();
 *   const server = setupServer(...handlers(sandbox));
 *   server.listen();
 *
 * `msw` is an optional peer dependency: only this entry point imports it.
 */
import { http, type HttpHandler } from 'msw';
import type { RunningSandbox } from './index.js';
import { SERVICE_HOST } from './intercept/hosts.js';
import type { Sandbox } from './sandbox.js';
import { wireErrorOf } from './http/connection.js';

export interface HandlersOptions {
  /** The origin your code calls, answered by the sandbox: `https://api.sendforsign.com` when not given. */
  baseUrl?: string;
}

/**
 * One handler for every path under `baseUrl`: the API, the document URLs and recipient links its answers carry
 * (they name the origin the request was made to), the control API. The request goes to the sandbox as it was
 * made, and the sandbox's answer comes back as it was given.
 */
export function handlers(sandbox: RunningSandbox | Sandbox, options: HandlersOptions = {}): HttpHandler[] {
  const origin = originOf(options.baseUrl ?? `https://${SERVICE_HOST}`);
  const inner = 'sandbox' in sandbox ? sandbox.sandbox : sandbox;
  return [http.all(`${origin}/*`, ({ request }) => answer(inner, request))];
}

/**
 * The sandbox's answer, or MSW's network error (`Response.error()`) when an API fault broke the connection
 * (`Sandbox.fetch` rejects then, docs/scenarios.md, "Connection faults"): the client's request fails as on a port,
 * where a handler that threw would have MSW log an unhandled exception and the client meet that error as it is.
 */
async function answer(sandbox: Sandbox, request: Request): Promise<Response> {
  try {
    return await sandbox.fetch(request);
  } catch (error) {
    if (wireErrorOf(error)) return Response.error();
    throw error;
  }
}

/** `baseUrl` as an origin; a path would not reach the sandbox's routes, which sit at its root. */
function originOf(baseUrl: string): string {
  const url = new URL(baseUrl);
  if (url.pathname !== '/' || url.search || url.hash)
    throw new TypeError(`handlers(): baseUrl is an origin (scheme, host and port), not ${JSON.stringify(baseUrl)}`);
  return url.origin;
}

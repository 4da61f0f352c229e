/**
 * Sends a Node program's requests for the service's host to a running sandbox, leaving every other host alone
 * (docs/library.md, "Keep the production URL"): `node --import esign-sandbox/register app.js`.
 *
 * Built on `@mswjs/interceptors` for `fetch`, `http` and `https` (and what runs on them: axios, got, node-fetch,
 * SDKs). undici's own API (`request`, `stream`, its `fetch`) opens sockets itself, which no interceptor sees
 * (mswjs/msw#2165): for it, undici's global dispatcher, which Node's fetch and the undici package share, is wrapped
 * (undici-dispatcher.ts). The vendor's MCP server calls the service with undici's `request` (docs/compatibility.md,
 * "The MCP server").
 */
import { BatchInterceptor } from '@mswjs/interceptors';
import { ClientRequestInterceptor } from '@mswjs/interceptors/ClientRequest';
import { FetchInterceptor } from '@mswjs/interceptors/fetch';
import { type SandboxTarget, redirectedUrl } from './hosts.js';
import { redirectUndici } from './undici-dispatcher.js';

export interface Interception {
  /** Puts `fetch`, `http`, `https` and undici's dispatcher back as they were. */
  dispose(): void;
}

/** Starts sending requests for `hosts` to `target`, from every client of the process, before it returns. */
export function interceptHosts(target: SandboxTarget, hosts: ReadonlySet<string>): Interception {
  // The sandbox is reached with the fetch the interceptor has not wrapped: its own requests are never intercepted.
  const realFetch = globalThis.fetch;
  const undici = redirectUndici(target, hosts, realFetch);
  const interceptor = new BatchInterceptor({
    name: 'esign-sandbox',
    interceptors: [new ClientRequestInterceptor(), new FetchInterceptor()],
  });
  interceptor.on('request', async ({ request, controller }) => {
    const url = new URL(request.url);
    if (!hosts.has(url.hostname.toLowerCase())) return; // not the service's: the request goes out as it was
    try {
      controller.respondWith(await forward(request, redirectedUrl(url, target), realFetch));
    } catch (error) {
      // The client sees a network error, as it would if the service were down, naming where it was sent.
      controller.errorWith(
        new Error(`esign-sandbox/register: the sandbox at ${target.origin} did not answer ${request.method} ${url}`, {
          cause: error,
        }),
      );
    }
  });
  interceptor.apply();
  return {
    dispose() {
      interceptor.dispose();
      undici.dispose();
    },
  };
}

/** The request, sent to the sandbox as it was made (method, headers, body), and the sandbox's answer as it came. */
async function forward(request: Request, to: string, realFetch: typeof fetch): Promise<Response> {
  const headers = new Headers(request.headers);
  headers.delete('host'); // the sandbox's own name goes with the request to it (its Host allow-list)
  const bodyless = request.method === 'GET' || request.method === 'HEAD';
  const answer = await realFetch(to, {
    method: request.method,
    headers,
    body: bodyless ? undefined : await request.arrayBuffer(),
    redirect: 'manual', // a redirect is the client's to follow, as it would be from the service
  });
  return answer;
}

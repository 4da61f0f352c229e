/**
 * The Host header, checked twice.
 *
 * - `hostHeaderProblem` (per connection's request, before the app): RFC 9112 section 3.2 says a server answers 400
 *   to an HTTP/1.1 request with no Host, an empty one, or more than one. Node keeps only the first of several, so a
 *   request could pass the allow-list with `localhost` while a proxy in front routed it by the second name.
 * - `hostGuard` (the allow-list, README "Security"): the sandbox answers only requests addressed to one of its own
 *   names, so a web page cannot reach it through DNS rebinding (a name of the attacker's that resolves to 127.0.0.1
 *   a moment later; the browser then treats the sandbox as that page's own origin). Its own names: `localhost` and
 *   its subdomains, any IP address (a page cannot rebind an address), the `--host` name, the host of
 *   `--public-url`, and the names given with `--allowed-host`; `*` there answers any name.
 */
import type { IncomingMessage } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import { ApiError, quote } from '../core/errors.js';
import { isInProcess } from './connection.js';

export interface HostOptions {
  /** The bind name (`--host`). */
  host: string;
  /** `--public-url`, when given. */
  publicUrl?: string | undefined;
  /** `--allowed-host`, lower case; `*` allows any. */
  allowedHosts: readonly string[];
}

/**
 * What is wrong with the request's Host header, or undefined when it is one non-empty value (or absent from an
 * HTTP/1.0 request, which may omit it). Reads node's raw header list: a dozen strings, no parsing.
 */
export function hostHeaderProblem(request: IncomingMessage): string | undefined {
  const raw = request.rawHeaders;
  let count = 0;
  let value = '';
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host') {
      count++;
      value = raw[i + 1]!;
    }
  }
  if (count > 1) return `The request has ${count} Host headers; send exactly one (RFC 9112, section 3.2)`;
  if (count === 1 && value.trim() === '') return 'The Host header is empty; send the name the sandbox is reached by';
  if (count === 1 && !PLAIN_HOST.test(value) && !isHost(value))
    return `The Host header ${quote(value, 100)} is not a host name (with an optional :port)`;
  if (count === 0 && request.httpVersion !== '1.0')
    return 'The request has no Host header; HTTP/1.1 requires one (RFC 9112, section 3.2)';
  return undefined;
}

/** A name or IPv4 address with an optional port: what nearly every request carries, told by one regex. */
const PLAIN_HOST = /^[a-z0-9._-]+(:\d{1,5})?$/i;

/** Anything else: what URL reads as a host and port, spelled as sent (an IPv6 address, a name with other characters). */
function isHost(value: string): boolean {
  try {
    return new URL(`http://${value}/`).host === value.toLowerCase();
  } catch {
    return false;
  }
}

export function hostGuard(options: HostOptions): MiddlewareHandler {
  const names = new Set(options.allowedHosts);
  names.add(options.host.toLowerCase());
  if (options.publicUrl) names.add(new URL(options.publicUrl).hostname.toLowerCase());
  if (names.has('*')) return (_c, next) => next();
  // The last authority seen allowed: a client names the same host on every request of a connection (and usually
  // of all its connections), so its URL is parsed once, not per request.
  let allowedAuthority = '';
  return (c, next) => {
    // A request the sandbox's own process hands to the app (`Sandbox.fetch`, which esign-sandbox/msw calls):
    // addressed to the service's name, it never came through a port, so no browser sent it.
    if (isInProcess(c.env)) return next();
    const url = c.req.url;
    const from = url.indexOf('://') + 3;
    const to = url.indexOf('/', from);
    const authority = url.slice(from, to < 0 ? url.length : to);
    if (authority !== allowedAuthority) {
      const hostname = new URL(url).hostname.toLowerCase();
      if (!isOwnName(hostname, names)) {
        const shown = hostname.length > 100 ? `${hostname.slice(0, 100)}…` : hostname;
        throw ApiError.forbidden(
          `Host "${shown}" is not one of this sandbox's names (localhost, an IP address, --host, --public-url); ` +
            `to answer it, start the sandbox with --allowed-host ${shown} (or ESIGN_SANDBOX_ALLOWED_HOST=${shown}; * for any)`,
        );
      }
      allowedAuthority = authority;
    }
    return next();
  };
}

function isOwnName(hostname: string, names: ReadonlySet<string>): boolean {
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  // URL normalises every IPv4 form to dotted decimal and brackets IPv6.
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(name) || name.startsWith('[')) return true;
  return names.has(name);
}

/**
 * The Host allow-list (README "Security"): the sandbox answers only requests addressed to one of its own names, so
 * a web page cannot reach it through DNS rebinding (a name of the attacker's that resolves to 127.0.0.1 a moment
 * later; the browser then treats the sandbox as that page's own origin). Its own names: `localhost` and its
 * subdomains, any IP address (a page cannot rebind an address), the `--host` name, the host of `--public-url`, and
 * the names given with `--allowed-host`; `*` there answers any name.
 */
import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../core/errors.js';

export interface HostOptions {
  /** The bind name (`--host`). */
  host: string;
  /** `--public-url`, when given. */
  publicUrl?: string | undefined;
  /** `--allowed-host`, lower case; `*` allows any. */
  allowedHosts: readonly string[];
}

export function hostGuard(options: HostOptions): MiddlewareHandler {
  const names = new Set(options.allowedHosts);
  names.add(options.host.toLowerCase());
  if (options.publicUrl) names.add(new URL(options.publicUrl).hostname.toLowerCase());
  const anyName = names.has('*');
  return async (c, next) => {
    if (anyName) return next();
    const hostname = new URL(c.req.url).hostname.toLowerCase();
    if (isOwnName(hostname, names)) return next();
    const shown = hostname.length > 100 ? `${hostname.slice(0, 100)}…` : hostname;
    throw ApiError.forbidden(
      `Host "${shown}" is not one of this sandbox's names (localhost, an IP address, --host, --public-url); ` +
        `to answer it, start the sandbox with --allowed-host ${shown} (or ESIGN_SANDBOX_ALLOWED_HOST=${shown}; * for any)`,
    );
  };
}

function isOwnName(hostname: string, names: ReadonlySet<string>): boolean {
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  // URL normalises every IPv4 form to dotted decimal and brackets IPv6.
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(name) || name.startsWith('[')) return true;
  return names.has(name);
}

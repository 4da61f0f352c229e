/**
 * Which requests go to the sandbox instead of the service (docs/library.md, "Keep the production URL"): the
 * service's host, plus the names a team adds, matched on the host name alone (any scheme, any port).
 */

/** The real service's API host: what code and SDKs that keep the production URL call (docs/compatibility.md). */
export const SERVICE_HOST = 'api.sendforsign.com';

/** Where a redirected request goes: the sandbox's origin and the path it is mounted under ('' at the root). */
export interface SandboxTarget {
  origin: string;
  prefix: string;
}

/** `http://127.0.0.1:4010` or `https://sandbox.test/prefix/` as a target; refuses anything but an http(s) URL. */
export function sandboxTarget(url: string, what: string): SandboxTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`${what} is not a URL: ${JSON.stringify(url)} (e.g. http://127.0.0.1:4010)`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new Error(`${what} must be an http:// or https:// URL, not ${JSON.stringify(url)}`);
  if (parsed.search || parsed.hash) throw new Error(`${what} takes no query or fragment: ${JSON.stringify(url)}`);
  return { origin: parsed.origin, prefix: parsed.pathname.replace(/\/+$/, '') };
}

/**
 * The host names to redirect: the service's, and those of a comma- or space-separated list (host names, or URLs
 * whose host is taken). A name of the sandbox's own would send every redirected request back to itself, so it is
 * refused.
 */
export function interceptedHosts(extra: string | undefined, target: SandboxTarget, what: string): Set<string> {
  const hosts = new Set([SERVICE_HOST]);
  for (const item of (extra ?? '').split(/[\s,]+/).filter(Boolean)) {
    const name = hostnameOf(item);
    if (!name) throw new Error(`${what}: ${JSON.stringify(item)} is not a host name`);
    hosts.add(name);
  }
  const own = new URL(target.origin).hostname;
  if (hosts.has(own)) throw new Error(`${what} names the sandbox's own host (${own}): its requests would loop`);
  return hosts;
}

function hostnameOf(item: string): string | undefined {
  try {
    return new URL(item.includes('://') ? item : `http://${item}`).hostname.toLowerCase() || undefined;
  } catch {
    return undefined;
  }
}

/** The sandbox's URL for a request made to an intercepted host: same path and query, under the target. */
export function redirectedUrl(url: URL, target: SandboxTarget): string {
  return `${target.origin}${target.prefix}${url.pathname}${url.search}`;
}

/**
 * The credentials a request carries, read in one place: the `/api` edge (http/auth.ts) checks them, the request
 * journal (journal/journal.ts) uses them to tell whose request it was. Two kinds of header (docs/compatibility.md,
 * "Operations"): `Authorization: Bearer <token>`, or an API-key header, the configured one (`X-Service-Key` by
 * default) or the real service's own `X-Sendforsign-Key`, always accepted so real clients work unchanged.
 */
import { quote } from './errors.js';

/**
 * A platform's API key is a name, never a path: it stands in `/__sandbox/platforms/{apiKey}/…` and is matched there
 * after decoding, so a key may hold nothing that decodes to a dot segment, a slash or a percent sign
 * (docs/library.md, "Parallel test files on one sandbox"). Checked where a key is made (fixtures, `--api-key`,
 * `createPlatform`) and where one names a tenant (the scoped routes, `sandbox.tenant()`, a reset by key).
 */
export const API_KEY_PATTERN = /^[A-Za-z0-9_-]{1,200}$/;
export const API_KEY_RULE = 'an API key is letters, digits, _ and -, 1 to 200 characters';

/** Why `key` is no API key (a sentence quoting it), or undefined when it is one. */
export function apiKeyProblem(key: string): string | undefined {
  if (API_KEY_PATTERN.test(key)) return undefined;
  return `${quote(key)} is not an API key: ${API_KEY_RULE}`;
}

/** The API-key header when none is configured (`--api-key-header`). */
export const DEFAULT_API_KEY_HEADER = 'X-Service-Key';

/** The real service's own API-key header, accepted beside the configured one. */
export const REAL_SERVICE_KEY_HEADER = 'X-Sendforsign-Key';

/** The credential headers of one request, as sent (checked only when an endpoint needs a caller, http/auth.ts). */
export interface Credentials {
  authorization: string | undefined;
  /** The token of `authorization` when it reads `Bearer <token>`: worked out once, read by whoever tells the caller. */
  bearer: string | undefined;
  /** The API key, read only when no `Authorization` header came (a token wins over a key). */
  apiKey: string | undefined;
  /** The configured API-key header, named in the 401 answer. */
  apiKeyHeader: string;
}

/** The credential headers of a request; `apiKeyHeader` is the configured one. */
export function readCredentials(headers: Headers, apiKeyHeader: string): Credentials {
  const authorization = headers.get('authorization') ?? undefined;
  return {
    authorization,
    bearer: authorization !== undefined ? bearerToken(authorization) : undefined,
    apiKey:
      authorization === undefined
        ? (headers.get(apiKeyHeader) ?? headers.get(REAL_SERVICE_KEY_HEADER) ?? undefined)
        : undefined,
    apiKeyHeader,
  };
}

/** The token of an `Authorization` value of the form `Bearer <token>`, or undefined for any other form. */
export function bearerToken(authorization: string): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
}

/**
 * The travel object of one request (as WireMock's ServeEvent): what the sandbox works out about a request once, and
 * every stage after reads instead of working it out again (the stages: http/stages.ts). `RequestFacts` is made as the
 * request arrives, from its first line and headers: whose request it is (the caller its credentials prove, the tenant
 * they or its tenant path name) and that tenant's clock and time. `RequestBody` is made once, from the whole request,
 * when the body is first read (the API-faults gate or the route), else as the answer leaves (the `drain` stage,
 * http/body.ts): the body, the operation it names, and the request's tenant, the one value the journal, the API
 * faults, the request events and the operation's context (http/auth.ts) read. Both are never changed after.
 */
import type { Clock } from '../core/clock.js';
import { type Credentials, REAL_SERVICE_KEY_HEADER } from '../core/credentials.js';
import { ApiError } from '../core/errors.js';
import { operationOf } from '../core/operation.js';
import { stringAt } from '../core/json-path.js';
import type { TraceContext } from '../core/trace-context.js';
import { tenantKeyOfPath } from '../core/tenant-path.js';
import type { Services } from '../store/services.js';
import type { Principal } from './context.js';
import { platformByApiKey } from './platforms.js';
import { checkToken } from './tokens.js';

export interface RequestFacts {
  readonly method: string;
  readonly path: string;
  /** Monotonic milliseconds at arrival (core/wall-time.ts `monotonicNow`), for the journal's duration. */
  readonly started: number;
  /** The credential headers, as sent (core/credentials.ts). */
  readonly credentials: Credentials;
  /**
   * On /api: the caller the credentials prove, or the refusal they meet (401 or 403), thrown only by an operation
   * that needs a caller (a public one reads no credentials; http/auth.ts `identify`). Undefined off /api.
   */
  readonly caller: Principal | ApiError | undefined;
  /**
   * The tenant (platform id) its headers and path name as it arrives: a recipient page's link's (`/sharing/{link}`),
   * else the credentials' (even an expired or revoked token's, so a tenant's refused requests are filed under it) or
   * the tenant path of a scoped control call (`/__sandbox/platforms/{apiKey}/…`). Not yet the request's tenant, which
   * its body may tell otherwise (a public operation): that one is `RequestBody.tenant`.
   */
  readonly arrivalTenant: string | undefined;
  /** The arrival tenant's clock (`clocks.of(arrivalTenant)`), and its time as the request arrived. */
  readonly clock: Clock;
  readonly at: number;
}

export interface RequestBody {
  /** The body as text (a leading byte-order mark dropped). */
  readonly text: string;
  /**
   * The body parsed as JSON; undefined when it is not JSON or is past the structure limits (http/json-shape.ts,
   * `shapeRefusal`), which are checked before anything is parsed.
   */
  readonly json: unknown;
  /** Why the body's structure is refused, when it is (a reader that takes any shape parses it itself). */
  readonly shapeRefusal: ApiError | undefined;
  /** The operation the body names (core/operation.ts): `data.action`, `data.type` or a top-level `action`. */
  readonly operation: string | undefined;
  /**
   * The request's tenant (docs/library.md, "Whose request it is"): for a public operation
   * (resources/public-operations.ts) the tenant of the key its body or query names (a share link, a token create's API
   * key), whatever credentials came with it, as the operation acts there; for any other, the one its credentials or
   * tenant path name (`RequestFacts.arrivalTenant`), else the one its body or query names.
   */
  readonly tenant: string | undefined;
}

/** What one request carries in Hono's context variables (`c.var`), each set once by the stage that works it out. */
export interface RequestVariables {
  /** The sandbox's services, for the stages that look records up (whose request it is). Set with `request`. */
  services: Services;
  /** Set as the request arrives (http/stages.ts `arrive`). */
  request: RequestFacts;
  /** Set when the body is first read (http/body.ts `readRequestBody`), else as the answer leaves (`requestBody`). */
  body: RequestBody | undefined;
  /**
   * The body as text, once some reader has read it (so the faults gate, the router and the request journal read the
   * stream once; a copy of the stream would cost node-server's fast path on every request).
   */
  bodyText: string | undefined;
  /** The answer's compatibility warnings (docs/compatibility.md), which the journal lists beside the headers. */
  warnings: readonly string[] | undefined;
  /** Where an /api request's work hangs in a trace (http/trace.ts): carried into the deliveries it causes. */
  trace: TraceContext | undefined;
  /**
   * The API fault that broke the connection instead of answering (`reset`, `empty`, `garbage`; http/api-faults.ts):
   * the client got no status, so the journal and the request events say status 0.
   */
  unanswered: string | undefined;
}

/** The status the client got: 0 when an API fault broke the connection before any answer (`unanswered`). */
export function sentStatus(unanswered: string | undefined, answer: Response): number {
  return unanswered === undefined ? answer.status : 0;
}

/** A Hono environment with these variables: every route and middleware of the sandbox's app. */
export type RequestEnv = { Variables: RequestVariables };

/** The facts of a request as it arrives: `api` when it is an /api request, whose caller is worked out. */
export function arrivalFacts(
  services: Services,
  request: { method: string; path: string; started: number; credentials: Credentials; api: boolean },
): RequestFacts {
  const { credentials, path } = request;
  // A recipient page acts in its link's tenant, whatever credentials came (as a public operation does).
  const arrivalTenant =
    recipientPageTenant(services, path) ??
    requestTenant(services, { bearer: credentials.bearer, apiKey: tenantKeyOfPath(path) ?? credentials.apiKey });
  const clock = services.clocks.of(arrivalTenant);
  return {
    method: request.method,
    path,
    started: request.started,
    credentials,
    caller: request.api ? callerOf(services, credentials) : undefined,
    arrivalTenant,
    clock,
    at: clock.now(),
  };
}

/**
 * What the whole body tells (`json` undefined when it is not JSON), beside the request's own facts: `publicOperation`
 * says whether it is for a public operation, whose tenant is the one of the key it names, not its credentials'.
 */
export function bodyFacts(
  services: Services,
  facts: RequestFacts,
  body: {
    text: string;
    json: unknown;
    shapeRefusal: ApiError | undefined;
    query: () => Record<string, string>;
    publicOperation: boolean;
  },
): RequestBody {
  const { text, json, shapeRefusal, query } = body;
  const named = () => requestTenant(services, { body: json, query: query() });
  return {
    text,
    json,
    shapeRefusal,
    operation: operationOf(json),
    tenant: body.publicOperation ? named() : (facts.arrivalTenant ?? named()),
  };
}

/** What tells a request's tenant: its credentials, or what its body or query names. */
export interface RequestMarks {
  /** The token of the `Authorization: Bearer` header. */
  bearer?: string | undefined;
  /** The API-key header. */
  apiKey?: string | null | undefined;
  /** The parsed JSON body and the query parameters, when they were read. */
  body?: unknown;
  query?: Record<string, string>;
}

/**
 * The tenant (platformId) a request belongs to: by its bearer token, its API key (the header, or a platform token
 * create's `data.apiKey`), or the share link a recipient-side request names (the body's before the query's, as an
 * endpoint's input takes them). Undefined when nothing tells.
 */
export function requestTenant(services: Pick<Services, 'store'>, marks: RequestMarks): string | undefined {
  const { store } = services;
  if (marks.bearer) return store.tokens.get(marks.bearer)?.platformId;
  const apiKey = marks.apiKey ?? stringAt(marks.body, 'data', 'apiKey') ?? stringAt(marks.body, 'apiKey');
  if (apiKey) return platformByApiKey(services, apiKey.trim())?.platformId;
  const link = stringAt(marks.body, 'shareLink') ?? marks.query?.shareLink;
  return link ? shareLinkTenant(services, link) : undefined;
}

/** The recipient page names its share link in the path (`/sharing/<link>…`): its requests are the link's tenant's. */
const RECIPIENT_PAGE = /^\/sharing\/([^/]+)/;

function recipientPageTenant(services: Pick<Services, 'store'>, path: string): string | undefined {
  const link = RECIPIENT_PAGE.exec(path)?.[1];
  return link === undefined ? undefined : shareLinkTenant(services, link);
}

/** The tenant of a share link: its recipient's, or an extra link's (domain/share-links.ts). */
function shareLinkTenant(services: Pick<Services, 'store'>, link: string): string | undefined {
  const { store } = services;
  return store.recipients.get(link)?.platformId ?? store.shareLinks.get(link)?.platformId;
}

/**
 * Who is calling (docs/compatibility.md), from the credential headers. Three kinds of credentials:
 * - a platform token (`Authorization: Bearer`), acting for any client of its platform named in `data.clientKey`;
 * - a client token, acting for one client only (`data.clientKey` optional, 403 when it names another client);
 * - the API-key header (`X-Service-Key` by default, and always the real service's `X-Sendforsign-Key`) plus
 *   `data.clientKey`, with a platform token's rights.
 * Whether a token is live is domain/tokens.ts's rule. The refusal is returned, not thrown: an operation that reads no
 * credentials never meets it.
 */
function callerOf(services: Services, credentials: Credentials): Principal | ApiError {
  if (credentials.authorization !== undefined) {
    const bearer = credentials.bearer;
    if (bearer === undefined) return ApiError.unauthorized('Authorization header must be "Bearer <access_token>"');
    try {
      const token = checkToken(services, bearer);
      return token.kind === 'client'
        ? { kind: 'client-token', platformId: token.platformId, clientKey: token.clientKey!, token: token.token }
        : { kind: 'platform-token', platformId: token.platformId, token: token.token };
    } catch (refusal) {
      if (refusal instanceof ApiError) return refusal;
      throw refusal;
    }
  }
  if (credentials.apiKey !== undefined) {
    const platform = platformByApiKey(services, credentials.apiKey.trim());
    // The real service answers an invalid key with 403 [D:introapi] (missing credentials stay 401).
    if (!platform) return ApiError.forbidden('Invalid API key: no platform has this key');
    return { kind: 'api-key', platformId: platform.platformId };
  }
  return ApiError.unauthorized(
    `Missing credentials: send "Authorization: Bearer <access_token>" or the "${credentials.apiKeyHeader}: <apiKey>" header (or "${REAL_SERVICE_KEY_HEADER}")`,
  );
}

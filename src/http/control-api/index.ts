/**
 * The control API under /__sandbox (docs/library.md): the sandbox-only operations over HTTP, mounted from the one
 * table of control operations (control-table/). JSON in, JSON out (an empty body means `{}`), errors in the same
 * format as the API. No credentials: it is a local test tool. Every operation about one tenant's world is mounted
 * twice: at its path, and under /platforms/{apiKey} with the same path and body, acting for that tenant only.
 */
import { type Context, Hono } from 'hono';
import type { Control } from '../../control/control.js';
import {
  type ControlEntry,
  type ControlRequest,
  type ControlWorld,
  TextAnswer,
  controlRoutes,
} from '../../control-table/index.js';
import { honoPath } from '../../core/route-path.js';
import type { BodyReader } from '../../control-table/operation.js';
import { ApiError, quote } from '../../core/errors.js';
import { TENANT_PREFIX } from '../../core/tenant-path.js';
import type { NotJournaled } from '../../journal/not-journaled.js';
import type { ScenarioEngine } from '../../scenarios/engine.js';
import { controlJson, readBodyText, readJsonObject } from '../body.js';
import { jsonStream, worthStreaming } from '../json-stream.js';
import { RECIPIENT_ROLES } from '../../core/vocabulary.js';

export interface ControlApiDeps {
  control: Control;
  scenarios: ScenarioEngine;
  maxBodyBytes: number;
}

/** A snapshot can be far larger than an API request; it still has a ceiling so a runaway upload is refused. */
export const MIN_STATE_BODY_BYTES = 256 * 1024 * 1024;

/**
 * The dashboard polls the journal itself (GET /__sandbox/requests): journaling that would push the requests it
 * shows out. A snapshot (/__sandbox/state) is the whole store: far over the body cap, and costly to copy for nothing.
 */
export const CONTROL_API_NOT_JOURNALED: NotJournaled = {
  paths: ['/__sandbox/requests'],
  bodies: ['/__sandbox/state'],
};

export function controlApiRoutes(deps: ControlApiDeps): Hono {
  const { control, scenarios } = deps;
  const app = new Hono();
  // First contact: where everything is (GET / leads to the dashboard).
  app.get('/', (c) => c.json(welcome(new URL(c.req.url).origin)));
  for (const entry of controlRoutes()) {
    app.on(entry.method, honoPath(entry.path), (c) =>
      answer(c, entry, deps, { control, scenarios, tenant: undefined }),
    );
    if (entry.tenant)
      app.on(entry.method, honoPath(`${TENANT_PREFIX}${entry.path}`), (c) =>
        answer(c, entry, deps, { control, scenarios, tenant: control.state.tenant(c.req.param('apiKey')!) }),
      );
  }
  // A verb no recipient has: named in a 400, not a bare 404. A wildcard after the verbs' own routes, not a
  // `{verb}` parameter: that one is ambiguous with them, which makes Hono fall back from its RegExpRouter to its
  // TrieRouter for every route of the sandbox (a tenth of the memory each request allocates; docs/benchmarks.md).
  for (const prefix of ['', TENANT_PREFIX])
    app.post(honoPath(`${prefix}/recipients/{recipientKey}/*`), (c) => {
      const verb = /\/recipients\/[^/]+\/(.+)$/.exec(c.req.path)?.[1];
      if (verb === undefined) return c.notFound();
      throw ApiError.badRequest(`Unknown verb ${quote(verb)}; a recipient can ${RECIPIENT_ROLES.join(', ')}`);
    });
  // The MCP server (docs/mcp.md): the same operations as tools, for coding agents; its SDK loaded on the first call.
  app.all('/mcp', async (c) => {
    const { handleMcpRequest } = await import('../../mcp/server.js');
    return handleMcpRequest(c.req.raw, (entry, request, apiKey) =>
      Promise.resolve(
        entry.op.handle(request, {
          control,
          scenarios,
          tenant: apiKey === undefined ? undefined : control.state.tenant(apiKey),
        }),
      ),
    );
  });
  // Where request emails used to link: it now leads to the recipient page, /sharing/<recipientKey>
  // (docs/pages.md), so links from older emails and data files keep working.
  app.get('/sign/:recipientKey', (c) => c.redirect(`/sharing/${encodeURIComponent(c.req.param('recipientKey'))}`, 301));
  return app;
}

async function answer(c: Context, { op, method }: ControlEntry, deps: ControlApiDeps, world: ControlWorld) {
  const request: ControlRequest = {
    params: c.req.param() as Record<string, string>,
    query: c.req.query(),
    body: await readBody(c, op.read ?? (method === 'POST' || method === 'PUT' ? 'json' : undefined), deps),
  };
  const handled = op.handle(request, world);
  const result = handled instanceof Promise ? await handled : handled;
  if (result instanceof TextAnswer)
    return c.body(result.text, op.status ?? 200, { 'Content-Type': result.contentType });
  if (worthStreaming(result))
    return c.body(jsonStream(result), op.status ?? 200, { 'Content-Type': 'application/json' });
  return c.json(result, op.status ?? 200);
}

/**
 * The body as the operation reads it. A scenario may come as JSON `{"yaml": …}` / `{"name": …}` or as the raw body
 * with a YAML content type (then the text itself).
 */
async function readBody(c: Context, reader: BodyReader | undefined, deps: ControlApiDeps): Promise<unknown> {
  if (reader === undefined) return {};
  if (reader === 'snapshot')
    return readJsonObject(c, Math.max(deps.maxBodyBytes, MIN_STATE_BODY_BYTES), { anyShape: true });
  if (reader === 'scenario' && /yaml/i.test(c.req.header('content-type') ?? ''))
    return readBodyText(c, deps.maxBodyBytes);
  return controlJson(c, deps.maxBodyBytes);
}

/** What `GET /__sandbox` answers: pointers to the dashboard, the API, the control API and the docs. */
export function welcome(origin: string) {
  return {
    name: 'esign-sandbox',
    message:
      'A local sandbox of the Contract Signing Service API. The API is under /api, the sandbox control API under /__sandbox.',
    dashboard: `${origin}/__sandbox/ui`,
    api: `${origin}/api`,
    control: `${origin}/__sandbox`,
    health: `${origin}/__sandbox/health`,
    docs: `${origin}/docs`,
    openapi: `${origin}/openapi.json`,
  };
}

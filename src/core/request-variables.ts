import type { TraceContext } from './trace-context.js';

/**
 * What one request carries in Hono's context variables (`c.var`) for readers after its handler: the body text the
 * body reader read (so the faults gate, the router and the request journal read the stream once; a copy of the
 * stream would cost node-server's fast path on every request) and the compatibility warnings the answer carries
 * (docs/compatibility.md), which the journal lists beside the `X-Sandbox-Warning` headers.
 */
export interface RequestVariables {
  /** The body as text (a leading byte-order mark dropped), once some reader has read it. */
  bodyText: string | undefined;
  /** The answer's compatibility warnings, when it has any. */
  warnings: readonly string[] | undefined;
  /** Where an /api request's work hangs in a trace (http/trace.ts): carried into the deliveries it causes. */
  trace: TraceContext | undefined;
}

/** A Hono environment with these variables (the journal middleware's; http/variables.ts adds the API's). */
export type RequestEnv = { Variables: RequestVariables };

/**
 * Compatibility warnings of one request (decisions §11), kept on the request by the router so the request journal
 * can list them beside the `X-Sandbox-Warning` headers the answer carries.
 */
const WARNINGS = Symbol('esign-sandbox.warnings');

type WithWarnings = Request & { [WARNINGS]?: readonly string[] };

export function rememberWarnings(request: Request, warnings: readonly string[]): void {
  (request as WithWarnings)[WARNINGS] = warnings;
}

export function rememberedWarnings(request: Request): readonly string[] | undefined {
  return (request as WithWarnings)[WARNINGS];
}

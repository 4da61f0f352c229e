/**
 * The text of a request body, kept on the request by the body reader so the request journal can show it
 * without copying the body stream a second time (a copy would cost node-server's fast path for every request).
 */
const BODY_TEXT = Symbol('esign-sandbox.bodyText');

type WithText = Request & { [BODY_TEXT]?: string };

export function rememberBodyText(request: Request, text: string): void {
  (request as WithText)[BODY_TEXT] = text;
}

export function rememberedBodyText(request: Request): string | undefined {
  return (request as WithText)[BODY_TEXT];
}

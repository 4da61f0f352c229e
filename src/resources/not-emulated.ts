/**
 * The real service's AI endpoints, which the vendor's AiAssistant calls (`context`, `context_files`, `chat`): the
 * sandbox does not emulate a language model, so each answers a JSON 501 that names it (docs/compatibility.md,
 * "AI endpoints"). Mounted by http/not-emulated.ts, described by openapi/document.ts.
 */
export const NOT_EMULATED_PATHS = ['/api/context', '/api/context_files', '/api/chat'];

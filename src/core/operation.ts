/**
 * Which operation a raw body asks for, read the way the router selects it: `data.action` (or `data.type`, the
 * settings endpoint) when the body has a `data` object, else the top-level `action` of the token variants.
 * For code that looks at bodies before or beside the router (API faults, the request journal).
 */
export function operationOf(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const b = body as { action?: unknown; data?: { action?: unknown; type?: unknown } };
  const value = b.data && typeof b.data === 'object' ? (b.data.action ?? b.data.type) : b.action;
  return typeof value === 'string' ? value : undefined;
}

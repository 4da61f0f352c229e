/** Reading parsed JSON of unknown shape (a request body, an answer) without trusting it. */

/** The string at `path` inside `value` (objects only, no arrays), or undefined when anything on the way is not. */
export function stringAt(value: unknown, ...path: string[]): string | undefined {
  let at = value;
  for (const key of path) {
    if (at === null || typeof at !== 'object' || Array.isArray(at)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return typeof at === 'string' ? at : undefined;
}

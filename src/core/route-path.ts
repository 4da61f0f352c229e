/** Paths as the tables declare them (OpenAPI form) and as Hono routes them. */

/** `/recipients/{recipientKey}` as Hono writes a route: `/recipients/:recipientKey`. */
export function honoPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

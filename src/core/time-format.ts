/**
 * The service's two time formats (docs/compatibility.md, "Times"). The store keeps epoch milliseconds; responses
 * pick a format per operation, always at whole seconds (every real example ends in `.000Z`, and a list and a read
 * of one record must give the same second):
 * - `sqlTime`: `YYYY-MM-DD HH:MM:SS` (UTC) in create, duplicate, convert and read responses of clients, users,
 *   templates and contracts;
 * - `isoTime`: ISO 8601 `YYYY-MM-DDTHH:MM:SS.000Z` in list responses and placeholder, recipient and webhook bodies.
 */
export function isoTime(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString();
}

export function sqlTime(ms: number): string {
  return isoTime(ms).slice(0, 19).replace('T', ' ');
}

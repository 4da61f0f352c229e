/**
 * The service's two time formats (interface §1.5, decisions §5). The store keeps epoch milliseconds;
 * responses pick a format per operation:
 * - `sqlTime`: `YYYY-MM-DD HH:MM:SS` (UTC) in create, duplicate, convert and read responses of clients, users, templates;
 * - `isoTime`: ISO 8601 with milliseconds and `Z` in list responses and placeholder, recipient, webhook and contract bodies.
 */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

export function sqlTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

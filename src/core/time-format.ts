/**
 * The service's two time formats (docs/compatibility.md, "Times"). The store keeps epoch milliseconds; responses
 * pick a format per operation, always at whole seconds (every real example ends in `.000Z`, and a list and a read
 * of one record must give the same second):
 * - `sqlTime`: `YYYY-MM-DD HH:MM:SS` (UTC) in create, duplicate, convert and read responses of clients, users,
 *   templates and contracts;
 * - `isoTime`: ISO 8601 `YYYY-MM-DDTHH:MM:SS.000Z` in list responses and placeholder, recipient and webhook bodies.
 * And one format for people, wherever a person reads a time (pages, documents): `peopleTime`.
 */
export function isoTime(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString();
}

export function sqlTime(ms: number): string {
  return isoTime(ms).slice(0, 19).replace('T', ' ');
}

/**
 * A time for people, the same on the recipient page, the dashboard and in documents: `2026-11-21 09:00:00 UTC`.
 * Takes epoch milliseconds or a stored time text (ISO or SQL form); text that is not a time is shown as it is, and
 * no time as nothing.
 */
export function peopleTime(time: number | string | undefined): string {
  if (time === undefined) return '';
  const ms = typeof time === 'number' ? time : parseTime(time);
  return Number.isFinite(ms) ? `${sqlTime(ms)} UTC` : String(time);
}

/** Epoch milliseconds of a time text: the SQL form (`YYYY-MM-DD HH:MM:SS`) read as UTC, else `Date.parse`'s reading. */
export function parseTime(text: string): number {
  return Date.parse(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(text) ? `${text.replace(' ', 'T')}Z` : text);
}

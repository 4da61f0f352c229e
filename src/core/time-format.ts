/**
 * The service's two time formats (interface §1.5, decisions §5). The store keeps epoch milliseconds;
 * responses pick a format per operation:
 * - `sqlTime`: `YYYY-MM-DD HH:MM:SS` (UTC) in create, duplicate, convert and read responses of clients, users, templates;
 * - `isoTime`: ISO 8601 with milliseconds and `Z` in list responses and placeholder, recipient, webhook and contract bodies.
 * And one format for people, wherever a person reads a time (pages, documents): `peopleTime`.
 */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

export function sqlTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * A time for people, the same on the recipient page, the dashboard and in documents: `2026-11-21 09:00:00 UTC`.
 * Takes epoch milliseconds or a stored time text (ISO or SQL form); text that is not a time is shown as it is, and
 * no time as nothing.
 */
export function peopleTime(time: number | string | undefined): string {
  if (time === undefined) return '';
  const ms =
    typeof time === 'number' ? time : Date.parse(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(time) ? `${time}Z` : time);
  return Number.isFinite(ms) ? `${sqlTime(ms)} UTC` : String(time);
}

/**
 * The service's two time formats (interface §1.5, decisions §5). The store keeps epoch milliseconds;
 * responses pick a format per operation:
 * - `sqlTime`: `YYYY-MM-DD HH:MM:SS` (UTC) in create, duplicate, convert and read responses of clients, users, templates;
 * - `isoTime`: ISO 8601 with milliseconds and `Z` in list responses and placeholder, recipient, webhook and contract bodies.
 */
export function isoTime(ms: number): string {
  if (ms === memo.ms) return memo.iso;
  const iso = new Date(ms).toISOString();
  memo.ms = ms;
  memo.iso = iso;
  return iso;
}

/**
 * The last time formatted. A contract create formats the same millisecond four times (its list row's two times,
 * the answer, the event), and Date#toISOString was the costliest call of the create path. A cache of a pure
 * function: nothing any sandbox could observe, so it is shared by all of them.
 */
const memo = { ms: Number.NaN, iso: '' };

export function sqlTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}


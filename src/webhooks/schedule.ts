/**
 * The retry schedule of docs/webhooks.md: after a failed attempt the delivery is tried again after these
 * intervals of sandbox time; after the last one fails it is `failed`. Ten attempts in all.
 */
export const RETRY_SCHEDULE_MS: readonly number[] = [
  5_000, // 5 s
  5 * 60_000, // 5 min
  30 * 60_000, // 30 min
  2 * 3_600_000, // 2 h
  5 * 3_600_000, // 5 h
  10 * 3_600_000, // 10 h
  14 * 3_600_000, // 14 h
  20 * 3_600_000, // 20 h
  24 * 3_600_000, // 24 h
];

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
export const DEFAULT_DELIVERY_LOG_LIMIT = 10_000;

/** The longest Retry-After the sandbox honours: a receiver cannot park a delivery for longer than the last step. */
const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

/**
 * Reads a Retry-After value (seconds, or an HTTP date read against sandbox time) into milliseconds.
 * Unreadable values are ignored and the schedule applies.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, MAX_RETRY_AFTER_MS);
  const at = Date.parse(text);
  if (!Number.isFinite(at)) return undefined;
  return Math.min(Math.max(0, at - now), MAX_RETRY_AFTER_MS);
}

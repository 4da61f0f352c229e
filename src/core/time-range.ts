/**
 * The range of times the sandbox works in (years 0000 to 9999), the longest span inside it, and the one sum that
 * keeps a deadline inside it: every response format prints a time of this range (docs/scenarios.md, "Durations and
 * times").
 */

/**
 * The times the sandbox clock can show: years 0000 to 9999, the range every response format can print
 * (`toISOString` throws past ±8.64e15 ms and prints six-digit years beyond 9999).
 */
export const TIME_RANGE = {
  min: Date.parse('0000-01-01T00:00:00.000Z'),
  max: Date.parse('9999-12-31T23:59:59.999Z'),
} as const;

export function inTimeRange(ms: number): boolean {
  return Number.isFinite(ms) && ms >= TIME_RANGE.min && ms <= TIME_RANGE.max;
}

/** The longest duration anything takes: the span of TIME_RANGE, ~10,000 years (core/schemas.ts `duration`). */
export const MAX_DURATION_MS = TIME_RANGE.max - TIME_RANGE.min;

/**
 * `ms` after `from`, or the last instant the clock can show when that lies beyond it: a deadline or a delay counted
 * from a late moment stops at the end of time rather than becoming a time no format can print
 * (docs/scenarios.md, "Durations and times").
 */
export function later(from: number, ms: number): number {
  return Math.min(from + ms, TIME_RANGE.max);
}

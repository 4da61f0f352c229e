/**
 * zod pieces shared by several formats (fixtures, scenarios, faults, the control API): keys, durations, globs.
 */
import { z } from 'zod';
import { parseDuration } from './duration.js';
import { MAX_DURATION_MS } from './time-range.js';
import { API_KEY_PATTERN, API_KEY_RULE } from './credentials.js';

/** A key the sandbox makes or a file fixes: letters and digits only (docs/compatibility.md, "Keys"). */
export const keyPattern = () => z.string().regex(/^[A-Za-z0-9]+$/, 'Keys are letters and digits only');

/** A platform's API key: a name, never a path (core/credentials.ts). */
export const apiKeyName = () =>
  z.string().regex(API_KEY_PATTERN, `${API_KEY_RULE[0]!.toUpperCase()}${API_KEY_RULE.slice(1)}`);

export const DURATION_PATTERN = /^(\d+(\.\d+)?(ms|s|m|h|d|w))+$/;
const DURATION_HINT = 'expected a duration like "90s", "30m", "2h", "3d", "1h30m" or a number of seconds';

/** What a duration longer than the clock can span is told (docs/scenarios.md, "Durations and times"). */
export const TOO_LONG = 'longer than the 10,000 years the clock can show (the years 0000 to 9999)';

/** Whether a duration (a number of seconds or a duration text) fits in the years the clock can show. */
export function spansClock(value: string | number): boolean {
  const ms = parseDuration(value);
  return ms === undefined || ms <= MAX_DURATION_MS;
}

/** Sandbox time: "90s", "30m", "2h", "3d", "1h30m", "500ms", or a number of seconds; at most ~10,000 years. */
export const duration = () =>
  z
    .union([z.number().min(0), z.string().regex(DURATION_PATTERN, DURATION_HINT)], { error: DURATION_HINT })
    .refine(spansClock, TOO_LONG)
    .meta({
      description: 'A span of sandbox time: "90s", "30m", "2h", "3d", "1h30m", "500ms", or a number of seconds.',
    });

/** A glob's longest: as long as the longest name or email it is matched against (docs/scenarios.md, "Globs"). */
export const MAX_GLOB_LENGTH = 500;

export const glob = () =>
  z
    .string()
    .min(1)
    .max(MAX_GLOB_LENGTH)
    .meta({ description: 'A glob: * matches any run of characters, ? one character; case-insensitive.' });
/** An optional non-empty string, described: a name or id the caller may give, the operation a match names. */
export const optionalName = (description: string) => z.string().min(1).optional().meta({ description });

export const statusCode = () => z.number().int().min(100).max(599);

/** A status (`404`) or a class of them (`"4xx"`), as scenarios and filters name answers. */
export const statusOrClass = () =>
  z
    .union([statusCode(), z.string().regex(/^[1-5]xx$/, 'expected a status like 404 or a class like "4xx"')], {
      error: 'expected a status like 404 or a class like "4xx"',
    })
    .meta({ description: 'A status like 404, or a class like "2xx" or "4xx".' });

export function statusMatches(spec: number | string, status: number | undefined): boolean {
  if (status === undefined) return false;
  return typeof spec === 'number' ? status === spec : Math.floor(status / 100) === Number(spec[0]);
}

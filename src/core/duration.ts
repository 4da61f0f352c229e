/**
 * Durations as people write them in scenarios, fault specs and options ("90s", "1h30m"), read into milliseconds
 * (docs/scenarios.md, "Durations and times"); core/schemas.ts `duration` checks them at the edge.
 */

/** Parses "90s", "30m", "2h", "1d", "1h30m", "500ms" or a number of seconds into milliseconds. */
export function parseDuration(input: string | number): number | undefined {
  if (typeof input === 'number') return Number.isFinite(input) && input >= 0 ? input * 1000 : undefined;
  const text = input.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/gy;
  let total = 0;
  let matched = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    total += Number(m[1]) * units[m[2]!]!;
    matched = re.lastIndex;
  }
  return matched === text.length && matched > 0 ? total : undefined;
}

/** Milliseconds of a duration already checked by a schema (core/schemas.ts `duration`). */
export function durationMs(value: string | number): number {
  const ms = parseDuration(value);
  if (ms === undefined) throw new Error(`unreadable duration ${String(value)}`);
  return ms;
}

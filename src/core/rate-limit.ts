/**
 * A rate limit as users write it (docs/readiness.md, "Quotas like a test mode"): `10/min`, `2/s`, `500/h`. The
 * service publishes no numbers; these are the sandbox's own, like the test modes of other e-signature services.
 */
import { z } from 'zod';

export interface RateLimitSpec {
  /** Requests per period (the bucket's size). */
  limit: number;
  periodMs: number;
  /** As written, normalised: `10/min`. */
  text: string;
}

const PERIODS: Record<string, [number, string]> = {
  s: [1000, 's'],
  sec: [1000, 's'],
  second: [1000, 's'],
  m: [60_000, 'min'],
  min: [60_000, 'min'],
  minute: [60_000, 'min'],
  h: [3_600_000, 'h'],
  hour: [3_600_000, 'h'],
};

export const RATE_LIMIT_HINT = 'expected a rate like "10/min", "2/s" or "500/h" (requests per second, minute or hour)';

/** `10/min` read, or undefined when it is not a rate. */
export function parseRateLimit(text: string): RateLimitSpec | undefined {
  const m = /^\s*(\d{1,7})\s*\/\s*([a-z]+)\s*$/i.exec(text);
  const period = m ? PERIODS[m[2]!.toLowerCase()] : undefined;
  if (!m || !period || Number(m[1]) < 1) return undefined;
  return { limit: Number(m[1]), periodMs: period[0], text: `${Number(m[1])}/${period[1]}` };
}

/** The zod schema of a rate: the text, read into a spec. */
export const rateLimit = () =>
  z
    .string()
    .transform((text, ctx) => {
      const spec = parseRateLimit(text);
      if (!spec) ctx.addIssue({ code: 'custom', message: RATE_LIMIT_HINT });
      return spec ?? z.NEVER;
    })
    .meta({ description: 'Requests per second, minute or hour for each API key, e.g. "10/min" (docs/readiness.md).' });

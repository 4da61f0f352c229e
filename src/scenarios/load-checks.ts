/**
 * What a scenario is checked for when it loads (engine.ts): its moments within the clock's years, and how much data
 * it may generate while the sandbox runs; and how its clock settings apply when it loads at run time.
 */
import type { Clock } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import { isoTime } from '../core/time-format.js';
import { TIME_RANGE } from '../core/time-range.js';
import { landsPastClock } from './matching.js';
import type { Scenario } from './schema.js';

/** When a scenario loaded now starts: now, or at run time its `clock.start` when that lies ahead (applyClockAtRunTime). */
export function loadTime(scenario: Scenario, now: number, atStart: boolean | undefined): number {
  const start = scenario.clock?.start;
  return atStart || start === undefined ? now : Math.max(now, Date.parse(start));
}

/**
 * Moments counted from the load (a step's `at`, an expectation's `by`) must fall in the years the clock can show:
 * one past 9999 is refused at load, naming its key, rather than a timer no answer can print (docs/scenarios.md,
 * "Durations and times").
 */
export function checkMoments(scenario: Scenario, loadAt: number): void {
  const moments: [string, string | number | undefined][] = [
    ...(scenario.timeline ?? []).map((s, i): [string, string | number | undefined] => [`timeline[${i}].at`, s.at]),
    ...(scenario.expect ?? []).map((e, i): [string, string | number | undefined] => [`expect[${i}].by`, e.by]),
  ];
  const late = moments.filter(([, at]) => at !== undefined && landsPastClock(at, loadAt));
  if (late.length === 0) return;
  throw ApiError.badRequest(
    `Scenario ${scenario.name}: ${late.map(([key]) => key).join(', ')} lands past ${isoTime(TIME_RANGE.max)}, the last time the clock can show (loaded at ${isoTime(loadAt)})`,
    late.map(([path]) => ({ path, message: 'Past 9999-12-31T23:59:59.999Z' })),
  );
}

/**
 * How many records (contracts and their recipients) `generate` may make in a scenario loaded while the sandbox
 * runs. Seeding runs on the main thread at ~50-100 µs a record, so 1,000 contracts of 20 recipients stalled every
 * other request for 1-2 s; 500 records stay under ~50 ms. At start (--scenario) nothing else waits, so no limit.
 */
export const MAX_GENERATED_AT_RUN_TIME = 500;

export function checkGenerated(scenario: Scenario): void {
  let records = 0;
  for (const c of scenario.data?.clients ?? []) {
    const contracts = c.generate?.contracts ?? 0;
    records += contracts * (1 + (c.generate?.recipientsPerContract ?? 2));
  }
  if (records > MAX_GENERATED_AT_RUN_TIME)
    throw ApiError.badRequest(
      `Scenario ${scenario.name}: data.clients[].generate makes ${records} records (contracts and their recipients); a scenario loaded while the sandbox runs may generate at most ${MAX_GENERATED_AT_RUN_TIME}. Load it at start (--scenario) or seed them with --fixtures (docs/scenarios.md)`,
    );
}

/**
 * At run time the clock is shared with whatever else is going on, so a scenario may move it only forward:
 * `frozen` freezes or unfreezes; `start` moves the clock there if it lies ahead (running timers on the way)
 * and is ignored, with a note, if it lies behind.
 */
export async function applyClockAtRunTime(scenario: Scenario, notes: string[], clock: Clock): Promise<void> {
  const c = scenario.clock!;
  if (c.frozen === true) clock.freeze();
  if (c.frozen === false) clock.unfreeze();
  if (c.start !== undefined) {
    const start = Date.parse(c.start);
    if (start > clock.now()) await clock.set(start);
    else if (start < clock.now())
      notes.push(
        `clock.start ${c.start} is behind the sandbox clock (${isoTime(clock.now())}); the clock was not moved back`,
      );
  }
}

/**
 * The order of a clock's queue of timers (clock.ts): by due time, then rank, then the order they were set. Kept
 * apart so that the one rule of "what runs first at an instant" has a home the docs can name.
 */

/**
 * The order of timers due at the same sandbox instant (docs/scenarios.md, "Order"): recipients' planned acts first,
 * then scenario steps (ranked further by load order and file order), then the sandbox's own timers (held
 * deliveries released, fault and outage ends), and webhook deliveries last (first attempts and retries), so a
 * fault or outage whose window starts at an instant covers every delivery attempted at it; timers of one rank run
 * in the order they were set.
 */
export const TIMER_RANK = { recipientAct: [0], scenarioStep: [1], sandbox: [2], delivery: [3] } as const;

function rankBefore(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? -1) - (b[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
}

/** What orders a queued timer: its due time, its rank among timers due then, and when it was set. */
export interface OrderedTimer {
  at: number;
  /** Among timers due at the same instant, lower ranks run first (see TIMER_RANK). */
  rank: readonly number[];
  seq: number;
}

/** Binary insertion keeps the queue sorted by (at, rank, seq), so same-time timers of a rank run in scheduling order. */
export function insertTimer<T extends OrderedTimer>(queue: T[], timer: T): void {
  let lo = 0;
  let hi = queue.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const other = queue[mid]!;
    const rank = other.at === timer.at ? rankBefore(other.rank, timer.rank) : 0;
    if (other.at < timer.at || (other.at === timer.at && (rank < 0 || (rank === 0 && other.seq < timer.seq))))
      lo = mid + 1;
    else hi = mid;
  }
  queue.splice(lo, 0, timer);
}

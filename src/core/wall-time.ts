/**
 * Real (wall-clock) time, beside the sandbox clock (clock.ts): with it, the only readers of time. Wall time is for what
 * is judged outside the sandbox (a client's clock checks a certificate or a `webhook-timestamp`), for faults that
 * model a slow network, and for measuring how long work took; never for the sandbox's own times.
 */
import { performance } from 'node:perf_hooks';

/** Wall-clock milliseconds for measuring how long something took (never used as sandbox time). */
export function elapsedSince(startMs: number): number {
  return Math.round((performance.now() - startMs) * 100) / 100;
}

/**
 * Real wall time, for the few things judged against it outside the sandbox: a TLS certificate's validity and a
 * webhook's `webhook-timestamp` are checked by clients against their own clock, never the sandbox's.
 */
export function wallNow(): number {
  return Date.now();
}

/**
 * What tells wall time, epoch ms: the system's (`wallNow`) unless a test injects one, so what is judged in the time a
 * client waits (the readiness report's Retry-After check, docs/readiness.md) is tested without real sleeps.
 */
export type WallClock = () => number;

/**
 * Waits `ms` of real (wall-clock) time, whatever the sandbox clock does: for faults that model a slow network,
 * which a receiver experiences in wall time. Resolves early (without throwing) when `signal` aborts.
 */
export function wallDelay(ms: number, signal?: AbortSignal): Promise<void> {
  if (!(ms > 0) || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

export function monotonicNow(): number {
  return performance.now();
}

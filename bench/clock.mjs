/**
 * Clock advance with many pending timers (bench/run.mjs, docs/benchmarks.md): `clock.advance(30 days)` in process
 * with 10,000 timers pending, each starting tracked async work as a webhook retry does. Target: under 1 s.
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ROOT, SIZES, row } from './harness.mjs';

export async function benchClock() {
  console.log(`Clock advance of 30 days with ${SIZES.timers} pending timers`);
  const { createSandbox } = await import(join(ROOT, 'dist', 'index.js'));
  const sandbox = await createSandbox({ clock: 'frozen', start: '2026-01-01T00:00:00Z' });
  const clock = sandbox.services.clocks.sandbox;
  let ran = 0;
  const span = 30 * 86_400_000;
  const now = clock.now();
  for (let i = 0; i < SIZES.timers; i++) {
    // Timers that do the kind of work retries and scenario steps do: touch the store, start async work.
    clock.schedule(
      now + Math.floor(((i + 1) * span) / (SIZES.timers + 1)),
      () => {
        ran++;
        return clock.work.track(Promise.resolve());
      },
      'bench',
    );
  }
  const t0 = performance.now();
  await clock.advance(span);
  const ms = performance.now() - t0;
  await sandbox.close();
  row(
    `clock advance 30 days, ${SIZES.timers} pending timers`,
    ms,
    undefined,
    'ms',
    '< 1000 ms',
    ms < 1000 && ran === SIZES.timers ? 'met' : 'MISSED',
    `${ran} timers ran; each starts tracked async work, as a webhook retry or scenario step does`,
  );
}

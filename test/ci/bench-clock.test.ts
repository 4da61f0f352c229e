/**
 * The bench's clock step runs the built package in process (dist/index.js, which the suite's set-up builds). It had
 * imported dist/sandbox.js, a file the build stopped making when it began to bundle, and the sandbox clock from a
 * field since renamed, and failed in every full `npm run bench` unseen: this runs it, small (BENCH_QUICK=1), in a
 * process of its own. It checks that every timer ran, not how fast (the figure is the bench's).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

it('the bench clock step runs against the built package and every timer it schedules runs', () => {
  const script = `const h = await import('./bench/harness.mjs');
const { benchClock } = await import('./bench/clock.mjs');
await benchClock();
console.log('ROWS ' + JSON.stringify(h.rows));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    env: { ...process.env, BENCH_QUICK: '1' },
    encoding: 'utf8',
  });
  const rows = JSON.parse(/^ROWS (.*)$/m.exec(out)![1]!) as { figure: string; note?: string }[];
  expect(rows.map((r) => [r.figure, r.note?.split(';')[0]])).toEqual([
    ['clock advance 30 days, 1000 pending timers', '1000 timers ran'],
  ]);
});

/**
 * The soak's rate (docs/benchmarks.md): test/http/soak.test.ts run for SOAK_CYCLES cycles (240; 12 with
 * BENCH_QUICK=1) through vitest, read from the summary line it prints. The test checks the traffic's correctness
 * and a level heap, never its speed; how many cycles a second the sandbox gets through is this figure. One home
 * for the traffic: the test file. Measures the sources as the suite runs them (in process, app.request()).
 */
import { spawn } from 'node:child_process';
import { ROOT } from './harness.mjs';

export async function soakFigures({ quick = false } = {}) {
  // 240, not 100: the test asserts a level heap from 200 cycles on, after V8's warm-up (test/http/soak.test.ts).
  const cycles = quick ? 12 : 240;
  const output = await new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [`${ROOT}/node_modules/vitest/vitest.mjs`, 'run', 'test/http/soak.test.ts', '--reporter=dot'],
      {
        cwd: ROOT,
        env: { ...process.env, SOAK_CYCLES: String(cycles), NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`the soak test failed:\n${out.slice(-2000)}`)),
    );
  });
  const line = /soak: (\{.*\})/.exec(output);
  if (!line) throw new Error(`no summary line from the soak test:\n${output.slice(-2000)}`);
  const s = JSON.parse(line[1]);
  const note = `${s.cycles} cycles of 15 contracts, ${s.requests} requests in ${s.seconds} s; heap ${s.heapMB.first} → ${s.heapMB.last} MB, slope ${s.heapSlopeKBPerCycle} KB per cycle`;
  return [
    {
      figure: 'soak: mixed-traffic cycles per second (in process)',
      ours: s.cycles / s.seconds,
      unit: 'cycles/s',
      target: 'reported',
      verdict: 'reported',
      note,
    },
    {
      figure: 'soak: requests per second (in process)',
      ours: s.requests / s.seconds,
      unit: 'req/s',
      target: 'reported',
      verdict: 'reported',
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(await soakFigures({ quick: process.env.BENCH_QUICK === '1' }));

/**
 * The time of a full `esign-sandbox verify` run against a local target (docs/benchmarks.md, "verify"): the real
 * CLI (dist/cli.js) as a child process, every default flow (37 steps on both sides, the clean-up, the JSON file),
 * against a sandbox started in this process. Target: under 10 s. Median of 3 runs (1 with BENCH_QUICK=1).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startSandbox } from '../dist/index.js';
import { CLI, QUICK, median, row, work } from './harness.mjs';

function runOnce(target) {
  const args = ['verify', '--target', target.url, '--api-key', target.apiKey, '--secret', target.secret];
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, ...args, '--json', join(work, 'verify.json')], { stdio: 'ignore' });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(performance.now() - started) : reject(new Error(`verify exited ${code}`)),
    );
  });
}

export async function benchVerify() {
  const target = await startSandbox();
  try {
    const times = [];
    for (let i = 0; i < (QUICK ? 1 : 3); i++) times.push(await runOnce(target));
    const ms = median(times);
    row(
      'verify: full run against a local target',
      ms / 1000,
      undefined,
      's',
      '< 10 s',
      ms < 10_000 ? 'met' : 'MISSED',
      `median of ${times.length}: ${times.map((t) => (t / 1000).toFixed(2)).join(', ')} s (process start, a sandbox in it, 37 steps on both sides, clean-up)`,
    );
  } finally {
    await target.close();
  }
}

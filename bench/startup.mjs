/**
 * Start to first healthy answer of the CLI and of the bare Hono server (bench/run.mjs, docs/benchmarks.md): `spawn`
 * of `node dist/cli.js` (default fixtures, in memory) and of the bare server, interleaved, to the first 200 from
 * `GET /__sandbox/health` polled every millisecond, median of 15. The `npx` overhead: median of 3 starts through
 * `npx --no-install esign-sandbox` in a folder where the package is installed, minus the plain start.
 */
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ROOT, CLI, BARE, SIZES, work, row, fmt, median, freePort, launch, stop, waitHealthy } from './harness.mjs';

export async function benchStartup() {
  console.log('Start to first healthy answer');
  const ours = [];
  const bare = [];
  for (let i = 0; i < SIZES.starts; i++) {
    for (const kind of ['ours', 'bare']) {
      const port = await freePort();
      const t0 = performance.now();
      const child =
        kind === 'bare'
          ? launch(process.execPath, [BARE, String(port)])
          : launch(process.execPath, [CLI, '--port', String(port)]);
      await waitHealthy(port, child);
      (kind === 'bare' ? bare : ours).push(performance.now() - t0);
      await stop(child);
    }
  }
  const o = median(ours);
  const b = median(bare);
  row('start → first healthy answer (median)', o, b, 'ms', '≤ 1.3× bare Hono', o / b <= 1.3 ? 'met' : 'MISSED');

  // npx overhead: a folder where esign-sandbox is installed (linked), started the way users start it. npm marks
  // a package's bin executable when it installs it; tsc does not, so the link gets the same treatment here.
  chmodSync(CLI, 0o755);
  const dir = join(work, 'npx');
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(ROOT, join(dir, 'node_modules', 'esign-sandbox'));
  symlinkSync(join('..', 'esign-sandbox', 'dist', 'cli.js'), join(dir, 'node_modules', '.bin', 'esign-sandbox'));
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'npx-bench', private: true, dependencies: { 'esign-sandbox': '*' } }),
  );
  const npx = [];
  for (let i = 0; i < Math.min(3, SIZES.starts); i++) {
    const port = await freePort();
    const t0 = performance.now();
    const child = launch('npx', ['--no-install', 'esign-sandbox', '--port', String(port)], { cwd: dir });
    try {
      await waitHealthy(port, child);
      npx.push(performance.now() - t0);
    } finally {
      await stop(child);
    }
  }
  const n = median(npx);
  row(
    '`npx esign-sandbox` overhead (median, on top of the start)',
    n - o,
    undefined,
    'ms',
    'reported',
    'reported',
    `npx start ${fmt(n)} ms`,
  );
}

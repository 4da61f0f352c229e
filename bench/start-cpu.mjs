/**
 * CPU time (user + system, all threads) of a start, which a busy shared machine distorts far less than wall
 * time: `node -e 0`, `node dist/cli.js --version`, and start → first healthy answer of `node dist/cli.js` (default
 * fixtures, in memory, as `npm run bench` starts it) and of bench/bare-hono.mjs, interleaved. Each process
 * reports `process.cpuUsage()` when it exits (a preloaded module; a SIGTERM sent right after the first healthy
 * answer ends it). Medians of N runs: `node bench/start-cpu.mjs [N] [other-cli.js]` after `npm run build` (docs/benchmarks.md).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../scripts/free-port.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const BARE = join(ROOT, 'bench', 'bare-hono.mjs');
const runs = Number(process.argv[2] ?? 9);
const work = mkdtempSync(join(tmpdir(), 'esign-start-cpu-'));
const preload = join(work, 'cpu.mjs');
writeFileSync(
  preload,
  `import { writeFileSync } from 'node:fs';
process.on('exit', () => { const u = process.cpuUsage(); writeFileSync(process.env.CPU_OUT, String((u.user + u.system) / 1000)); });
process.on('SIGTERM', () => process.exit(0));
`,
);

async function run(args, port) {
  const out = join(work, 'out');
  rmSync(out, { force: true });
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', preload, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, CPU_OUT: out, NO_COLOR: '1' },
  });
  child.stdout.resume();
  const exited = new Promise((r) => child.once('exit', r));
  let wall;
  if (port) {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode} before answering`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/__sandbox/health`);
        await res.arrayBuffer();
        if (res.status === 200) break;
      } catch {
        /* not listening yet */
      }
      await new Promise((r) => setTimeout(r, 1));
    }
    wall = performance.now() - t0;
    child.kill('SIGTERM');
  }
  await exited;
  wall ??= performance.now() - t0;
  return { cpu: Number(readFileSync(out, 'utf8')), wall };
}

const health =
  (script, ...args) =>
  async () => {
    const port = await freePort();
    return run([script, ...args, String(port)], port);
  };
const cases = {
  'node -e 0': () => run(['-e', '0']),
  'cli --version': () => run([CLI, '--version']),
  'bare start → health': health(BARE),
  'cli start → health': health(CLI, '--port'),
};
// Another build of the CLI to compare with, interleaved (e.g. main's, copied into dist/ so it finds its files).
const other = process.argv[3];
if (other) {
  cases['other --version'] = () => run([other, '--version']);
  cases['other start → health'] = health(other, '--port');
}
const results = Object.fromEntries(Object.keys(cases).map((k) => [k, { cpu: [], wall: [] }]));
for (let i = 0; i < runs; i++) {
  for (const [name, fn] of Object.entries(cases)) {
    const r = await fn();
    results[name].cpu.push(r.cpu);
    results[name].wall.push(r.wall);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [name, r] of Object.entries(results)) {
  console.log(
    `${name.padEnd(22)} CPU median ${median(r.cpu).toFixed(1).padStart(6)} ms (min ${Math.min(...r.cpu)
      .toFixed(1)
      .padStart(6)})  wall median ${median(r.wall).toFixed(1).padStart(6)} ms`,
  );
}
const ratio = (name, figure) =>
  (median(results[`${name} start → health`][figure]) / median(results['bare start → health'][figure])).toFixed(2);
for (const name of other ? ['cli', 'other'] : ['cli'])
  console.log(`${name} / bare, start → health: CPU ${ratio(name, 'cpu')}×, wall ${ratio(name, 'wall')}×`);
rmSync(work, { recursive: true, force: true });

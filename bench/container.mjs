/**
 * The container (docs/benchmarks.md "Latest figures"): start to healthy of the image built from the Dockerfile (median
 * of 5, from `podman run` to the first 200 of /__sandbox/health), beside the same start as a process
 * (`node dist/cli.js`, median of 5), and the image's size (`podman image inspect`). Target: the container adds
 * under 300 ms to the start. The image is built as the container test builds it (scripts/podman.mjs: the
 * stand-in base, Debian minbase + this machine's Node, where no registry is reachable); without podman it says so
 * and measures nothing. Run alone: `node bench/container.mjs` (after `npm run build`).
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { IMAGE, LIMITS, PODMAN, ensureImage, imageSize, podman, unavailable } from '../scripts/podman.mjs';
import { freePort } from '../scripts/free-port.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = 5;
const TARGET_MS = 300;

/** Milliseconds from now until GET /__sandbox/health on this port answers 200. */
async function untilHealthy(port, since, exited) {
  for (;;) {
    if (exited()) throw new Error(`the sandbox on port ${port} exited before it was healthy`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/__sandbox/health`);
      await res.arrayBuffer();
      if (res.status === 200) return performance.now() - since;
    } catch {}
    if (performance.now() - since > 60_000) throw new Error(`the sandbox on port ${port} was not healthy in 60 s`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function containerStart(name) {
  const port = await freePort();
  const since = performance.now();
  let done = false;
  const child = spawn(
    'podman',
    [...PODMAN, 'run', '-d', '--name', name, ...LIMITS, '-e', `ESIGN_SANDBOX_PORT=${port}`, IMAGE],
    { stdio: 'ignore' },
  );
  child.on('exit', (code) => {
    if (code !== 0) done = true;
  });
  try {
    return await untilHealthy(port, since, () => done);
  } finally {
    podman(['rm', '-f', '-v', '--time', '0', name], { allowFailure: true });
  }
}

async function processStart() {
  const port = await freePort();
  const since = performance.now();
  let done = false;
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'cli.js'), '--port', String(port)], { stdio: 'ignore' });
  child.on('exit', () => {
    done = true;
  });
  try {
    return await untilHealthy(port, since, () => done);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (done ? r() : child.once('exit', r)));
  }
}

/** Rows for bench/run.mjs: { figure, ours, baseline, unit, target, verdict, note }; empty (and a line) without podman. */
export async function containerFigures() {
  const why = unavailable();
  if (why) {
    console.log(`  container: skipped (${why})`);
    return [];
  }
  ensureImage();
  const tag = `esign-bench-${process.pid}`;
  // One start of each first, not counted: the page cache, podman's storage and Node's compile cache warm up.
  await containerStart(`${tag}-warm`);
  await processStart();
  const containers = [];
  const processes = [];
  for (let i = 0; i < RUNS; i++) {
    containers.push(await containerStart(`${tag}-${i}`));
    processes.push(await processStart());
  }
  const container = median(containers);
  const proc = median(processes);
  const added = container - proc;
  const size = imageSize() / 1e6;
  return [
    {
      figure: 'container start to healthy (median of 5)',
      ours: container,
      baseline: proc,
      unit: 'ms',
      target: `< process + ${TARGET_MS} ms`,
      verdict: added < TARGET_MS ? 'met' : 'MISSED',
      note: `podman run → first 200 of /__sandbox/health: ${containers.map(Math.round).join(', ')} ms; as a process (node dist/cli.js): ${processes.map(Math.round).join(', ')} ms; the container adds ${Math.round(added)} ms`,
    },
    {
      figure: 'image size',
      ours: size,
      baseline: undefined,
      unit: 'MB',
      target: 'report',
      verdict: 'reported',
      note: `${IMAGE} (podman image inspect), on the stand-in base (Debian bookworm minbase + this machine's Node ${process.version})`,
    },
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const r of await containerFigures()) {
    console.log(
      `${r.figure}: ${r.ours.toFixed(1)} ${r.unit}${r.baseline !== undefined ? ` (process ${r.baseline.toFixed(1)} ${r.unit})` : ''}  ${r.verdict}`,
    );
    console.log(`  · ${r.note}`);
  }
}

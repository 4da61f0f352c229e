/**
 * npm run bench: measures esign-sandbox (the compiled dist/) next to a bare Hono server doing the same JSON
 * work in the same run, so the ratios hold on a noisy machine. Prints a table (figure, ours, baseline, ratio,
 * target, verdict) and writes bench/results/latest.json. See docs/benchmarks.md.
 *
 * Environment: BENCH_QUICK=1 shrinks every figure (a smoke run of the harness, not a measurement).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { burstFigures } from './burst.mjs';
import { documentFigures } from './documents.mjs';
import { containerFigures } from './container.mjs';
import { installSizeFigures } from './install-size.mjs';
import { readinessFigures } from './readiness.mjs';
import { soakFigures } from './soak.mjs';
import { ROOT, QUICK, rows, work, children, row, fmt } from './harness.mjs';
import { benchStartup } from './startup.mjs';
import { benchCreate, benchInProcess } from './create.mjs';
import { benchMsw } from './msw.mjs';
import { benchVolume } from './volume.mjs';
import { benchClock } from './clock.mjs';
import { benchWebhooks } from './webhooks.mjs';
import { benchTeam } from './team.mjs';
import { benchRestart } from './restart.mjs';
import { stallFigures } from './stalls.mjs';
import { uploadFigures } from './uploads.mjs';
import { workBoundFigures } from './work-bounds.mjs';
import { benchTenants } from './tenants.mjs';
import { benchVerify } from './verify.mjs';

const started = performance.now();

function printTable() {
  const header = ['figure', 'ours', 'baseline', 'ratio', 'target', 'verdict'];
  const lines = rows.map((r) => [
    r.figure,
    r.ours === undefined ? '—' : `${fmt(r.ours)} ${r.unit}`,
    r.baseline === undefined ? '—' : `${fmt(r.baseline)} ${r.unit}`,
    r.ratio === undefined ? '—' : `${r.ratio.toFixed(2)}×`,
    r.target,
    r.verdict,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => String(l[i]).length)));
  const show = (cells) => cells.map((c, i) => String(c).padEnd(widths[i])).join('  ');
  console.log(`\n${show(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const l of lines) console.log(show(l));
  for (const r of rows.filter((r) => r.note)) console.log(`  · ${r.figure}: ${r.note}`);
}

/** Documents (bench/documents.mjs): download_pdf of a 20-page HTML contract and of a 20-page PDF with 40 fields, a 10 MB upload, memory after 100 downloads. */
async function benchDocuments() {
  for (const r of await documentFigures({ quick: QUICK }))
    row(r.figure, r.ours, undefined, r.unit, r.target, r.verdict, r.note);
}

/** A burst of downloads (bench/burst.mjs): 200 at once of a 224-page signed contract against one alone, and the server's RSS. */
async function benchBurst() {
  for (const r of await burstFigures({ quick: QUICK }))
    row(r.figure, r.ours, r.baseline, r.unit, r.target, r.verdict, r.note);
}

/** The longest main-thread stall (bench/stalls.mjs): hostile documents under the limits through every route that shows them. */
async function benchStalls() {
  for (const r of await stallFigures()) row(r.figure, r.ours, undefined, r.unit, r.target, r.verdict, r.note);
}

/** Uploads at once (bench/uploads.mjs): the longest main-thread stall while 50 PDFs of 5 MB are uploaded together. */
async function benchUploads() {
  for (const r of await uploadFigures({ quick: QUICK }))
    row(r.figure, r.ours, undefined, r.unit, r.target, r.verdict, r.note);
}

/** Work bounded by time and globs (bench/work-bounds.mjs): stalls of a 100-year advance with a periodic reaction, and of 21-star glob matches. */
async function benchWorkBounds() {
  for (const r of await workBoundFigures()) row(r.figure, r.ours, undefined, r.unit, r.target, r.verdict, r.note);
}

/** The readiness report (bench/readiness.mjs): built over 10,000 /api requests and 2,000 deliveries, and its longest stall. */
async function benchReadiness() {
  for (const r of await readinessFigures()) row(r.figure, r.ours, undefined, r.unit, r.target, r.verdict, r.note);
}

/** The soak's rate (bench/soak.mjs): cycles of test/http/soak.test.ts's mixed traffic per second. */
async function benchSoak() {
  for (const r of await soakFigures({ quick: QUICK }))
    row(r.figure, r.ours, undefined, r.unit, r.target, r.verdict, r.note);
}

/** The installed size (bench/install-size.mjs): npm pack, npm install into a fresh project, du of node_modules. */
async function benchInstallSize() {
  for (const r of await installSizeFigures()) row(r.figure, r.ours, r.baseline, r.unit, r.target, r.verdict, r.note);
}

/** The container (bench/container.mjs): podman run to healthy beside the process start, and the image size; skipped without podman. */
async function benchContainer() {
  for (const r of await containerFigures()) row(r.figure, r.ours, r.baseline, r.unit, r.target, r.verdict, r.note);
}

async function main() {
  const steps = [
    benchStartup,
    benchInProcess,
    benchMsw,
    benchCreate,
    benchVolume,
    benchClock,
    benchTenants,
    benchWebhooks,
    benchTeam,
    benchRestart,
    benchVerify,
    benchDocuments,
    benchBurst,
    benchStalls,
    benchUploads,
    benchWorkBounds,
    benchReadiness,
    benchSoak,
    benchInstallSize,
    benchContainer,
  ];
  const only = process.argv[2];
  for (const step of steps) {
    if (only && !step.name.toLowerCase().includes(only.toLowerCase())) continue;
    try {
      await step();
    } catch (error) {
      row(
        step.name,
        undefined,
        undefined,
        '',
        '—',
        `FAILED: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  printTable();
  const seconds = (performance.now() - started) / 1000;
  const result = {
    at: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    cpu: cpus()[0]?.model,
    quick: QUICK,
    seconds,
    figures: rows,
  };
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results', 'latest.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    `\n${rows.filter((r) => r.verdict === 'met').length} targets met, ${rows.filter((r) => r.verdict === 'MISSED' || r.verdict.startsWith('FAILED')).length} missed; ${seconds.toFixed(0)} s; written to bench/results/latest.json`,
  );
  if (rows.some((r) => r.verdict === 'MISSED' || r.verdict.startsWith('FAILED'))) process.exitCode = 1;
}

try {
  await main();
} finally {
  for (const child of children) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  rmSync(work, { recursive: true, force: true });
}

/**
 * The installed size: what `npm install esign-sandbox` puts on a user's disk. Packs the built package (`npm pack`,
 * dist/ as it is), installs the tarball into a fresh project (production dependencies, as users get them) and
 * measures `node_modules` with `du` (target: <= 25 MB, docs/benchmarks.md); also counts the packages and lists those with
 * install scripts. Then the start through `npx` from that tarball, cold and warm (below).
 * Run alone: `node bench/install-size.mjs` (after `npm run build`).
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const LIMIT = { maxBuffer: 32 * 1024 * 1024, timeout: 300_000 };

async function duMB(dir) {
  const { stdout } = await run('du', ['-sk', dir], LIMIT);
  return Number(stdout.split(/\s/)[0]) / 1024;
}

/** Every package folder under node_modules (scoped ones included) with its package.json. */
function packages(modules) {
  const out = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      if (name.startsWith('.')) continue;
      if (name.startsWith('@')) {
        walk(join(dir, name));
        continue;
      }
      try {
        const manifest = JSON.parse(readFileSync(join(dir, name, 'package.json'), 'utf8'));
        out.push(manifest);
        const nested = join(dir, name, 'node_modules');
        try {
          walk(nested);
        } catch {}
      } catch {}
    }
  };
  walk(modules);
  return out;
}

async function install(work, tarball, extra = []) {
  const project = mkdtempSync(join(work, 'project-'));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'size-check', private: true }));
  await run(
    'npm',
    [
      'install',
      tarball,
      ...extra,
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '--loglevel=error',
    ],
    { cwd: project, ...LIMIT },
  );
  const modules = join(project, 'node_modules');
  const all = packages(modules);
  return {
    mb: await duMB(modules),
    packages: all.length,
    installScripts: all
      .filter((p) => p.scripts && (p.scripts.preinstall || p.scripts.install || p.scripts.postinstall))
      .map((p) => p.name),
  };
}

/**
 * `npx esign-sandbox` from the packed tarball in an empty folder, to the first healthy answer: cold (an empty npm
 * cache, so npm downloads the package's dependencies from the registry, as a fresh CI job does) and warm (the
 * same cache again: what a CI cache gives). Milliseconds.
 */
async function npxStart(tarball, cache) {
  const dir = mkdtempSync(join(dirname(cache), 'npx-'));
  const ready = join(dir, 'ready');
  const started = performance.now();
  const child = spawn(
    'npx',
    ['--yes', `--package=${tarball}`, 'esign-sandbox', '--port', '0', '--ready-file', ready, '--quiet'],
    {
      cwd: dir,
      detached: true,
      stdio: 'ignore',
      env: { ...process.env, npm_config_cache: cache, npm_config_update_notifier: 'false' },
    },
  );
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npx esign-sandbox exited ${child.exitCode}`);
      if (existsSync(ready)) {
        const url = readFileSync(ready, 'utf8').trim();
        if (url && (await fetch(`${url}/__sandbox/health`)).ok) return performance.now() - started;
      }
      if (performance.now() - started > 120_000) throw new Error('npx esign-sandbox did not start within 120 s');
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    const exited = new Promise((done) => child.once('exit', done));
    if (child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
    await exited;
  }
}

/** Packs a built checkout into `work/pack-<name>`; the tarball's path and npm's facts about it. */
async function pack(dir, work, name) {
  const into = join(work, `pack-${name}`);
  mkdirSync(into);
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', into], {
    cwd: dir,
    ...LIMIT,
  });
  const [info] = JSON.parse(stdout);
  return { ...info, tarball: join(into, info.filename) };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * BEFORE=<another built checkout> measures that package too, in the same run (npx starts interleaved), as the
 * baseline column: e.g. main's build before the package was bundled.
 */
export async function installSizeFigures() {
  const work = mkdtempSync(join(tmpdir(), 'esign-size-'));
  try {
    const builds = [
      { name: 'ours', dir: ROOT },
      ...(process.env.BEFORE ? [{ name: 'before', dir: process.env.BEFORE }] : []),
    ];
    for (const b of builds) {
      b.info = await pack(b.dir, work, b.name);
      b.installed = await install(work, b.info.tarball);
      b.cache = join(work, `npm-cache-${b.name}`);
      b.warm = [];
    }
    for (const b of builds) b.cold = await npxStart(b.info.tarball, b.cache);
    for (let i = 0; i < 3; i++) for (const b of builds) b.warm.push(await npxStart(b.info.tarball, b.cache));
    const [ours, before] = builds;
    const mb = (b) => b.info.size / 1024 / 1024;
    return [
      {
        figure: 'package tarball (npm pack)',
        ours: mb(ours),
        baseline: before && mb(before),
        unit: 'MB',
        target: 'reported',
        verdict: 'reported',
        note: builds
          .map(
            (b) =>
              `${b.name}: ${b.info.entryCount} files, ${(b.info.unpackedSize / 1024 / 1024).toFixed(1)} MB unpacked`,
          )
          .join('; '),
      },
      {
        figure: 'installed size: node_modules of a fresh project after npm install <tarball>',
        ours: ours.installed.mb,
        baseline: before?.installed.mb,
        unit: 'MB',
        target: '<= 25 MB; no install script',
        verdict: ours.installed.mb <= 25 && ours.installed.installScripts.length === 0 ? 'met' : 'MISSED',
        note: builds
          .map(
            (b) =>
              `${b.name}: ${b.installed.packages} packages, install scripts: ${b.installed.installScripts.join(', ') || 'none'}`,
          )
          .join('; ')
          .concat('; no optional peer dependency installed (testcontainers, msw, OpenTelemetry)'),
      },
      {
        figure: 'npx esign-sandbox from the tarball to the first healthy answer, cold npm cache',
        ours: ours.cold,
        baseline: before?.cold,
        unit: 'ms',
        target: 'reported',
        verdict: 'reported',
        note: 'an empty npm cache: npm downloads the dependencies, as a fresh CI job does',
      },
      {
        figure: 'npx esign-sandbox from the tarball to the first healthy answer, warm npm cache (median of 3)',
        ours: median(ours.warm),
        baseline: before && median(before.warm),
        unit: 'ms',
        target: 'reported',
        verdict: 'reported',
        note: builds.map((b) => `${b.name}: ${b.warm.map(Math.round).join(', ')} ms`).join('; '),
      },
    ];
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const r of await installSizeFigures())
    console.log(
      `${r.figure}: ${r.ours.toFixed(1)} ${r.unit}${r.baseline === undefined ? '' : ` (before: ${r.baseline.toFixed(1)} ${r.unit})`} (${r.verdict})${r.note ? `\n  ${r.note}` : ''}`,
    );
}

/**
 * The installed size: what `npm install esign-sandbox` puts on a user's disk. Packs the built package (`npm pack`,
 * dist/ as it is), installs the tarball into a fresh project (production dependencies, as users get them) and
 * measures `node_modules` with `du`; also counts the packages and lists those with install scripts. Beside it,
 * the same install plus `swagger-ui-dist` (and its `@scarf/scarf`), the runtime dependency the package had before
 * it shipped Swagger UI's files in dist/. Run alone: `node bench/install-size.mjs` (after `npm run build`).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

export async function installSizeFigures() {
  const work = mkdtempSync(join(tmpdir(), 'esign-size-'));
  try {
    mkdirSync(join(work, 'pack'));
    const { stdout } = await run(
      'npm',
      ['pack', '--ignore-scripts', '--json', '--pack-destination', join(work, 'pack')],
      {
        cwd: ROOT,
        ...LIMIT,
      },
    );
    const [info] = JSON.parse(stdout);
    const tarball = join(work, 'pack', info.filename);
    const now = await install(work, tarball);
    const { devDependencies } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const before = await install(work, tarball, [`swagger-ui-dist@${devDependencies['swagger-ui-dist']}`]);
    return [
      {
        figure: 'package tarball (npm pack)',
        ours: info.size / 1024 / 1024,
        unit: 'MB',
        target: 'reported',
        verdict: 'reported',
        note: `${info.entryCount} files, ${(info.unpackedSize / 1024 / 1024).toFixed(1)} MB unpacked`,
      },
      {
        figure: 'installed size: node_modules of a fresh project after npm install <tarball>',
        ours: now.mb,
        unit: 'MB',
        target: 'reported; no install script',
        verdict: now.installScripts.length === 0 ? 'met' : 'MISSED',
        note: `${now.packages} packages; install scripts: ${now.installScripts.join(', ') || 'none'}. With swagger-ui-dist as a runtime dependency (before it was built into dist/): ${before.mb.toFixed(1)} MB, ${before.packages} packages, install scripts: ${before.installScripts.join(', ') || 'none'}`,
      },
    ];
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const r of await installSizeFigures())
    console.log(`${r.figure}: ${r.ours.toFixed(1)} ${r.unit} (${r.verdict})${r.note ? `\n  ${r.note}` : ''}`);
}

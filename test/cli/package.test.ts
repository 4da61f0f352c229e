/**
 * The package as users get it: built from the current source into a staging folder (the repo's own dist/ is
 * left alone, other tests run it), packed with `npm pack`, installed into a fresh project with `npm install
 * <tarball>` (dependencies from the npm cache when it has them), then run with `npx esign-sandbox` and
 * imported as `esign-sandbox`, types included. The slowest test of the suite: it builds, packs and installs.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/index.js';
import { TSC_AS_A_TEAM } from '../support/ci-kit.js';
import { firstBytes } from '../support/documents-kit.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..', '..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/** Stops the build's children when the file ends early (a timed-out beforeAll), so nothing writes after the cleanup. */
const stop = new AbortController();
const LIMIT = { timeout: 400_000, maxBuffer: 16 * 1024 * 1024, signal: stop.signal };

let work: string;
let project: string;
let packed: string[];
let tarball: string;

/** Every file under a folder of the repo, as package paths (`scenarios/happy-path.yaml`). */
function filesUnder(folder: string): string[] {
  const dir = join(ROOT, folder);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) =>
      join(entry.parentPath, entry.name)
        .slice(ROOT.length + 1)
        .split('\\')
        .join('/'),
    );
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'esign-sandbox-package-'));
  const stage = join(work, 'stage');
  for (const entry of ['package.json', 'README.md', 'LICENSE', 'docs', 'fixtures', 'scenarios']) {
    if (existsSync(join(ROOT, entry))) cpSync(join(ROOT, entry), join(stage, entry), { recursive: true });
  }
  // The same steps as `npm run build`, into the staging folder.
  await run(
    process.execPath,
    [
      join(ROOT, 'node_modules/typescript/bin/tsc'),
      '-p',
      join(ROOT, 'tsconfig.build.json'),
      '--outDir',
      join(stage, 'build'),
      '--declarationDir',
      join(stage, 'dist'),
    ],
    { cwd: ROOT, ...LIMIT },
  );
  // Then every `node scripts/….mjs` step of the build script (bundling the CLI, copying Swagger UI), in order.
  const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { build: string } };
  const steps = [...scripts.build.matchAll(/\bnode (scripts\/[\w.-]+\.mjs)/g)].map((m) => m[1]!);
  // The steps resolve the dependencies from the folder they build in.
  symlinkSync(join(ROOT, 'node_modules'), join(stage, 'node_modules'), 'dir');
  for (const step of steps) await run(process.execPath, [join(ROOT, step)], { cwd: stage, ...LIMIT });
  unlinkSync(join(stage, 'node_modules'));
  const { stdout } = await run(NPM, ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
    cwd: stage,
    ...LIMIT,
  });
  const [info] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
  packed = info!.files.map((f) => f.path);
  tarball = info!.filename;
  project = join(work, 'project');
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'uses-esign-sandbox', private: true, type: 'module' }),
  );
  // Offline, from tarballs only: the package's own, and its dependencies (hono and zod, kept for the types: the
  // runtime is bundled) packed from this repository's node_modules, as the registry would serve them.
  const { dependencies } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const deps = await run(
    NPM,
    [
      'pack',
      '--ignore-scripts',
      '--json',
      '--pack-destination',
      work,
      ...Object.keys(dependencies).map((d) => join(ROOT, 'node_modules', d)),
    ],
    { cwd: work, ...LIMIT },
  );
  const tarballs = (JSON.parse(deps.stdout) as { filename: string }[]).map((d) => join(work, d.filename));
  await run(
    NPM,
    ['install', join(work, info!.filename), ...tarballs, '--offline', '--no-audit', '--no-fund', '--loglevel=error'],
    { cwd: project, ...LIMIT },
  );
}, 420_000);

afterAll(() => {
  stop.abort();
  if (work) rmSync(work, { recursive: true, force: true });
});

// Each test below runs node, npx or tsc in the installed project: a minute each (two for tsc) rather than vitest's
// default 20 s, on a 2-core machine shared with other work.
describe('the packed package', () => {
  it('ships the compiled code with its types, the fixtures, the scenarios and their schema, and the docs', () => {
    for (const file of [
      'package.json',
      'README.md',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/cli.js',
      ...filesUnder('fixtures'),
      ...filesUnder('scenarios'),
      ...filesUnder('docs'),
    ]) {
      expect(packed, file).toContain(file);
    }
    expect(packed.filter((f) => f.startsWith('src/') || f.startsWith('test/'))).toEqual([]);
  });

  it("is the file the README's install-from-a-tarball steps name, and the version the README's banner shows", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const named = [...readme.matchAll(/esign-sandbox-[\w.-]+?\.tgz/g)].map((m) => m[0]);
    expect(named.length).toBeGreaterThan(2);
    expect(new Set(named)).toEqual(new Set([tarball]));
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(readme).toContain(`esign-sandbox ${version}: Contract Signing Service sandbox`);
  });

  it("ships the API reference's Swagger UI in its own build, so installing it runs no install script", () => {
    for (const file of ['swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-32x32.png', 'LICENSE', 'version.json'])
      expect(packed).toContain(`dist/swagger-ui/${file}`);
    const installed = join(project, 'node_modules');
    expect(existsSync(join(installed, 'esign-sandbox'))).toBe(true);
    // swagger-ui-dist is a devDependency: neither it nor @scarf/scarf (its telemetry install script) comes along.
    expect(existsSync(join(installed, 'swagger-ui-dist'))).toBe(false);
    expect(existsSync(join(installed, '@scarf'))).toBe(false);
  });

  it('installs light: the runtime bundled and minified, no source maps, no document libraries in node_modules', async () => {
    expect(packed.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(packed).toContain('dist/THIRD-PARTY-LICENSES.txt');
    expect(packed).toContain('dist/testcontainers.js');
    expect(packed).toContain('dist/testcontainers.d.ts');
    expect(packed).toContain('dist/register.js');
    expect(packed).toContain('dist/msw.js');
    expect(packed).toContain('dist/msw.d.ts');
    const installed = join(project, 'node_modules');
    for (const bundled of ['pdf-lib', 'docx', '@faker-js', 'yaml', 'selfsigned', 'sanitize-html', 'signature_pad'])
      expect(existsSync(join(installed, bundled)), bundled).toBe(false);
    // `npx esign-sandbox` downloads and unpacks this much: at most 25 MB (98 MB before bundling, docs/benchmarks.md).
    const { stdout } = await run('du', ['-sk', installed], LIMIT);
    expect(Number(stdout.split(/\s/)[0]) / 1024).toBeLessThanOrEqual(25);
  });

  it('starts without the on-demand parts: no interceptor, no OpenTelemetry, no MCP SDK in what the CLI and the library load at start', () => {
    const dist = join(project, 'node_modules', 'esign-sandbox', 'dist');
    /** A bundle file and every chunk it imports statically, transitively. */
    const startPath = (file: string, seen = new Set<string>()): Set<string> => {
      if (seen.has(file)) return seen;
      seen.add(file);
      for (const [, chunk] of readFileSync(join(dist, file), 'utf8').matchAll(
        /import\s*(?:[\w{}\s,*$]+from\s*)?"\.\/([^"]+)"/g,
      ))
        startPath(chunk!, seen);
      return seen;
    };
    const markers = [
      /from\s*"@opentelemetry\//, // OpenTelemetry: imported by the export chunk only, once an endpoint is set
      /Symbol\.for\("(client-request|fetch)-interceptor"\)/, // @mswjs/interceptors: dist/register.js only
      /from\s*"msw"/,
      /notifications\/initialized/, // the MCP SDK: loaded by `esign-sandbox mcp` and /__sandbox/mcp
    ];
    for (const entry of ['cli.js', 'index.js']) {
      const files = [...startPath(entry)];
      expect(files.length).toBeGreaterThan(1);
      for (const file of files) {
        const text = readFileSync(join(dist, file), 'utf8');
        expect(markers.filter((m) => m.test(text)).map(String), `${entry} → ${file}`).toEqual([]);
      }
    }
    // They are shipped, in files of their own.
    const all = readdirSync(dist).filter((f) => f.endsWith('.js'));
    const holding = (m: RegExp) => all.filter((f) => m.test(readFileSync(join(dist, f), 'utf8')));
    expect(holding(markers[0]!).length).toBe(1);
    expect(holding(markers[1]!)).toContain('register.js');
  });

  it('runs with npx esign-sandbox in the project it was installed into', async () => {
    const args = ['--no-install', 'esign-sandbox', '--port', '0', '--log-format', 'json', '--scenario', 'happy-path'];
    const child: ChildProcess = spawn('npx', args, {
      cwd: project,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    try {
      const first = await new Promise<string>((resolveLine, reject) => {
        createInterface({ input: child.stdout! }).once('line', resolveLine);
        child.once('exit', (code) => reject(new Error(`npx esign-sandbox exited with ${code}: ${stderr}`)));
      });
      const listening = JSON.parse(first);
      expect(listening).toMatchObject({ event: 'listening', apiKey: 'sandboxApiKey' });
      const health = await (await fetch(`${listening.url}/__sandbox/health`)).json();
      expect(health).toMatchObject({ status: 'ok', counts: { platforms: 1 } });
      const docs = await fetch(`${listening.url}/openapi.json`);
      expect(docs.status).toBe(200);
      const page = await fetch(`${listening.url}/docs`);
      const script = (await page.text()).match(/src="(\/docs\/assets\/swagger-ui-bundle\.js[^"]*)"/)?.[1];
      expect(script).toBeDefined();
      const bundle = await fetch(`${listening.url}${script}`);
      expect(bundle.status).toBe(200);
      expect((await bundle.text()).length).toBeGreaterThan(100_000);
      // The document libraries, bundled in chunks loaded on the first document: a PDF and a DOCX of a contract.
      const headers = { 'content-type': 'application/json', 'x-service-key': 'sandboxApiKey' };
      const created = await fetch(`${listening.url}/api/contract`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          data: { action: 'create', clientKey: 'demoClient', contract: { name: 'NDA', value: '<p>Terms</p>' } },
        }),
      });
      const { contract } = (await created.json()) as { contract: { contractKey: string } };
      const query = `contractKey=${contract.contractKey}&clientKey=demoClient`;
      const pdf = await fetch(`${listening.url}/api/download_pdf?${query}`, { headers });
      expect(await firstBytes(pdf, 5)).toBe('%PDF-');
      const docx = await fetch(`${listening.url}/api/download_docx?${query}`, { headers });
      expect(await firstBytes(docx, 2)).toBe('PK');
      // The scenario (YAML, parsed by the bundled yaml chunk) was loaded at start.
      const scenarios = (await (await fetch(`${listening.url}/__sandbox/scenarios`)).json()) as unknown;
      expect(JSON.stringify(scenarios)).toContain('happy-path');
    } finally {
      const exited = new Promise((done) => child.once('exit', done));
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
      await exited;
    }
  }, 60_000);

  it("imports as 'esign-sandbox' and starts a sandbox from code", async () => {
    const script = `
      import { startSandbox, createControlClient } from 'esign-sandbox';
      const sandbox = await startSandbox({ clock: 'frozen', start: '2026-01-01T00:00:00Z' });
      const health = await createControlClient(sandbox.url).health();
      console.log(JSON.stringify({ status: health.status, now: (await sandbox.clock.now()).toISOString() }));
      await sandbox.close();
    `;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project, ...LIMIT });
    expect(JSON.parse(stdout)).toEqual({ status: 'ok', now: '2026-01-01T00:00:00.000Z' });
  }, 60_000);

  it("loads with require('esign-sandbox') from a CommonJS project, as a fresh npm init -y project is", async () => {
    const script = `
      const { startSandbox, createControlClient } = require('esign-sandbox');
      startSandbox({ clock: 'frozen', start: '2026-01-01T00:00:00Z' }).then(async (sandbox) => {
        const health = await createControlClient(sandbox.url).health();
        console.log(JSON.stringify({ status: health.status }));
        await sandbox.close();
      });
    `;
    const { stdout } = await run(process.execPath, ['--input-type=commonjs', '-e', script], { cwd: project, ...LIMIT });
    expect(JSON.parse(stdout.trim().split('\n').pop()!)).toEqual({ status: 'ok' });
  }, 60_000);

  it('runs without its optional peer dependencies: no msw, no OpenTelemetry; an OTLP endpoint set only warns, naming them', async () => {
    for (const peer of ['msw', '@opentelemetry', 'testcontainers'])
      expect(existsSync(join(project, 'node_modules', peer)), peer).toBe(false);
    const script = `
      import { startSandbox } from 'esign-sandbox';
      const sandbox = await startSandbox();
      const health = await (await fetch(sandbox.url + '/__sandbox/health')).json();
      console.log(health.status);
      await sandbox.close();
    `;
    const { stdout, stderr } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: project,
      env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' },
      ...LIMIT,
    });
    expect(stdout.trim()).toBe('ok');
    expect(stderr).toMatch(
      /OpenTelemetry's packages are not installed, so no span is exported: npm install @opentelemetry\/api/,
    );
  }, 60_000);

  it("loads 'esign-sandbox/testcontainers' with require() and import once testcontainers is installed, and names it when not", async () => {
    const missing = await run(
      process.execPath,
      ['--input-type=module', '-e', "await import('esign-sandbox/testcontainers')"],
      { cwd: project, ...LIMIT },
    ).then(
      () => '',
      (error: { stderr: string }) => error.stderr,
    );
    expect(missing).toMatch(/Cannot find package 'testcontainers'/);
    // The optional peer dependency, as a user installs it (a link to this repository's copy: no network).
    symlinkSync(join(ROOT, 'node_modules', 'testcontainers'), join(project, 'node_modules', 'testcontainers'), 'dir');
    const esm = "const m = await import('esign-sandbox/testcontainers'); console.log(typeof m.EsignSandboxContainer);";
    const cjs = "console.log(typeof require('esign-sandbox/testcontainers').EsignSandboxContainer);";
    const a = await run(process.execPath, ['--input-type=module', '-e', esm], { cwd: project, ...LIMIT });
    const b = await run(process.execPath, ['--input-type=commonjs', '-e', cjs], { cwd: project, ...LIMIT });
    expect([a.stdout.trim(), b.stdout.trim().split('\n').pop()]).toEqual(['function', 'function']);
  }, 60_000);

  it("answers the service host in process with 'esign-sandbox/msw' once msw is installed, and names msw when not", async () => {
    const missing = await run(process.execPath, ['--input-type=module', '-e', "await import('esign-sandbox/msw')"], {
      cwd: project,
      ...LIMIT,
    }).then(
      () => '',
      (error: { stderr: string }) => error.stderr,
    );
    expect(missing).toMatch(/Cannot find package 'msw'/);
    // The optional peer dependency, as a user installs it (a link to this repository's copy: no network).
    symlinkSync(join(ROOT, 'node_modules', 'msw'), join(project, 'node_modules', 'msw'), 'dir');
    const script = `
      import { setupServer } from 'msw/node';
      import { startSandbox } from 'esign-sandbox';
      import { handlers } from 'esign-sandbox/msw';
      const sandbox = await startSandbox();
      const server = setupServer(...handlers(sandbox));
      server.listen({ onUnhandledRequest: 'error' });
      const res = await fetch('https://api.sendforsign.com/__sandbox/health');
      console.log((await res.json()).status);
      server.close();
      await sandbox.close();
    `;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project, ...LIMIT });
    expect(stdout.trim()).toBe('ok');
  }, 60_000);

  it("sends a program's calls for the service host to a sandbox with node --import esign-sandbox/register", async () => {
    const sandbox = await startSandbox();
    try {
      const script =
        "const res = await fetch('https://api.sendforsign.com/__sandbox/health'); console.log((await res.json()).status);";
      const { stdout } = await run(
        process.execPath,
        ['--import', 'esign-sandbox/register', '--input-type=module', '-e', script],
        { cwd: project, env: { ...process.env, ESIGN_SANDBOX_URL: sandbox.url }, ...LIMIT },
      );
      expect(stdout.trim()).toBe('ok');
    } finally {
      await sandbox.close();
    }
  }, 60_000);

  it('gives TypeScript users its types', async () => {
    writeFileSync(
      join(project, 'check.ts'),
      `import { startSandbox, type RunningSandbox, type JournalEntry } from 'esign-sandbox';
       const sandbox: RunningSandbox = await startSandbox({ clock: 'frozen', tls: false });
       const entries: JournalEntry[] = await sandbox.requests({ status: '4xx' });
       const wrong: number = sandbox.url;
       console.log(entries.length, wrong);
       import type { ApiRequest, ApiResponse } from 'esign-sandbox';
       const body: ApiRequest<'contract', 'create'> = { data: { action: 'create', contract: { name: 'NDA' } } };
       const key: ApiResponse<'contract', 'create'>['contract']['contractKey'] = 'k';
       console.log(body, key);\n`,
    );
    const tsc = [...TSC_AS_A_TEAM, 'check.ts'];
    const result = await run(process.execPath, tsc, { cwd: project, ...LIMIT }).then(
      () => '',
      (error: { stdout: string }) => error.stdout,
    );
    // The only error is the one planted on purpose: the package's types are found and precise.
    expect(result.trim().split('\n')).toEqual([
      expect.stringMatching(/check\.ts\(4,14\): error TS2322: Type 'string' is not assignable to type 'number'/),
    ]);
  }, 120_000);
});

/**
 * The build-time fixture cache (src/fixtures/build-cache.ts, scripts/bundle-cli.mjs): the CLI bundle skips parsing
 * and validating a bundled fixture file only when the build that made that bundle validated that exact text.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createHash } from 'node:crypto';
import { DEFAULT_FIXTURES } from '../src/config/options.js';
import { parseWith } from '../src/core/validation.js';
import { fixtureFileSchema } from '../src/fixtures/schema.js';
import { checkedAtBuild } from '../src/fixtures/build-cache.js';

interface BuildCache {
  build: string;
  files: Record<string, unknown>;
}
const yamlKey = (text: string) => createHash('sha1').update(text).digest('hex');
import { ensureBuilt } from './cli-process.js';

const ROOT = join(import.meta.dirname, '..');
const DEFAULT_TEXT = readFileSync(join(DEFAULT_FIXTURES, 'default.yaml'), 'utf8');
let work: string;

/** A copy of the built package (dist/cli.js with its chunks, its cache, fixtures) whose cache this test may change. */
function copyPackage(name: string, change: (cache: BuildCache) => void): string {
  const root = join(work, name);
  mkdirSync(join(root, 'dist'), { recursive: true });
  const bundle = readdirSync(join(ROOT, 'dist')).filter((f) => f === 'cli.js' || /^bundle-.*\.js$/.test(f));
  for (const file of bundle) cpSync(join(ROOT, 'dist', file), join(root, 'dist', file));
  for (const entry of ['package.json', 'fixtures', 'scenarios'])
    cpSync(join(ROOT, entry), join(root, entry), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
  const cache = JSON.parse(readFileSync(join(ROOT, 'dist', 'fixtures-checked.json'), 'utf8')) as BuildCache;
  change(cache);
  writeFileSync(join(root, 'dist', 'fixtures-checked.json'), JSON.stringify(cache));
  return root;
}

/** Starts the CLI, reads its banner up to the ready line, stops it; or the output and exit code if it exits. */
function banner(cli: string, args: string[] = []): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, '--port', '0', '--quiet', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Ready in')) child.kill('SIGTERM');
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => resolve({ code, out }));
  });
}

const renameDemoClient = (cache: BuildCache) => {
  const checked = cache.files[yamlKey(DEFAULT_TEXT)] as { platforms: { clients: { fullname: string }[] }[] };
  checked.platforms[0]!.clients[0]!.fullname = 'Client from the cache';
};

beforeAll(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'esign-fixture-cache-'));
}, 120_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the build-time fixture cache', () => {
  it('holds the bundled fixtures exactly as the fixture schema validates them', () => {
    const cache = JSON.parse(readFileSync(join(ROOT, 'dist', 'fixtures-checked.json'), 'utf8')) as BuildCache;
    expect(cache.files[yamlKey(DEFAULT_TEXT)]).toEqual(parseWith(fixtureFileSchema(), parse(DEFAULT_TEXT)));
  });

  it('is not used by code run from the sources, which validates every fixture file', () => {
    expect(checkedAtBuild(DEFAULT_TEXT)).toBeUndefined();
  });

  it('is used by the CLI bundle of the same build (a start builds no fixture schema)', async () => {
    const { out } = await banner(join(copyPackage('same-build', renameDemoClient), 'dist', 'cli.js'));
    expect(out).toContain('demoClient (Client from the cache)');
  });

  it('is not trusted when it comes from another build', async () => {
    const root = copyPackage('other-build', (cache) => {
      renameDemoClient(cache);
      cache.build = 'another build';
    });
    const { out } = await banner(join(root, 'dist', 'cli.js'));
    expect(out).toContain('demoClient (Demo Client)');
  });

  it('does not cover an edited fixture file: the CLI validates it and names what is wrong', async () => {
    const dir = join(work, 'edited');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'default.yaml'),
      DEFAULT_TEXT.replace('    secret: sandboxSecret\n', '    secret: sandboxSecret\n    colour: blue\n'),
    );
    const { code, out } = await banner(join(ROOT, 'dist', 'cli.js'), ['--fixtures', dir]);
    expect(code).not.toBe(0);
    expect(out).toMatch(/Fixture file .*default\.yaml is invalid:\n.*platforms\.0.*colour/);
  });
});

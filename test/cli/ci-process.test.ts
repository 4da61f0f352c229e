/**
 * The process recipe of docs/ci.md, run the way CI runs it: the shell block copied out of the page and run with
 * bash in a project that has esign-sandbox installed, and `npx esign-sandbox … &` stopped with a plain `kill $!`.
 * Afterwards no sandbox process is left, its port is free again, and the --data file holds what the run created.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, freePort, gone, portIsFree, recipe } from '../support/ci-kit.js';

const CLI = join(ROOT, 'dist', 'cli.js');

/** A project with esign-sandbox installed, as npm lays it out: the package and its bin in node_modules. */
const projects: string[] = [];
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'esign-ci-'));
  projects.push(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app-under-test', version: '1.0.0', private: true }));
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(ROOT, join(dir, 'node_modules', 'esign-sandbox'));
  // npm links the bin to dist/cli.js and marks it executable; a one-line exec wrapper does the same here without
  // changing the build output's mode.
  writeFileSync(join(dir, 'node_modules', '.bin', 'esign-sandbox'), `#!/bin/sh\nexec node "${CLI}" "$@"\n`, {
    mode: 0o755,
  });
  // "Your tests": create a contract against the URL of the ready file, and note the pid the recipe will stop.
  writeFileSync(
    join(dir, 'client.mjs'),
    `import { readFileSync, writeFileSync } from 'node:fs';
const url = readFileSync('.sandbox/ready', 'utf8').trim();
writeFileSync('seen.pid', readFileSync('.sandbox/pid', 'utf8'));
const res = await fetch(url + '/api/contract', {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-service-key': 'sandboxApiKey' },
  body: JSON.stringify({ data: { action: 'create', clientKey: 'demoClient', contract: { name: 'Made in CI', value: '<p>x</p>' } } }),
});
if (res.status !== 201) throw new Error('create answered ' + res.status);
`,
  );
  return dir;
}

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run npm run build');
});
afterAll(() => {
  for (const dir of projects) rmSync(dir, { recursive: true, force: true });
});

// Each test starts npx, which reads the whole linked tree (this repository's node_modules): 60 s, not the default
// 20 s, on a 2-core machine that other work is sharing.

describe.concurrent('the process recipe of docs/ci.md', () => {
  it('starts in the background, is ready, stops, and leaves no process, no port and a written data file', async () => {
    const dir = project();
    const port = await freePort();
    const script = recipe('The npm package in a CI step')
      .replaceAll('4010', String(port))
      .replace(/^npm test .*$/m, 'node client.mjs || exit 1');
    expect(script).toContain('node client.mjs');
    writeFileSync(join(dir, 'recipe.sh'), script);
    execFileSync('bash', ['recipe.sh'], { cwd: dir, stdio: 'pipe', timeout: 30_000 });

    const pid = Number(readFileSync(join(dir, 'seen.pid'), 'utf8'));
    expect(pid).toBeGreaterThan(0);
    expect(await gone(pid)).toBe(true);
    expect(await portIsFree(port)).toBe(true);
    expect(existsSync(join(dir, '.sandbox', 'pid'))).toBe(false);
    expect(existsSync(join(dir, '.sandbox', 'ready'))).toBe(false);
    expect(readFileSync(join(dir, '.sandbox', 'data.json'), 'utf8')).toContain('Made in CI');
  }, 60_000);

  it('stops when `kill $!` ends the npx that started it, writing its data file first', async () => {
    const dir = project();
    const port = await freePort();
    const script = `mkdir -p .sandbox
npx esign-sandbox --port ${port} --data .sandbox/data.json --pid-file .sandbox/pid --ready-file .sandbox/ready > .sandbox/log 2>&1 &
for i in $(seq 100); do [ -f .sandbox/ready ] && break; sleep 0.1; done
node client.mjs || exit 1
kill $!
wait $!
exit 0
`;
    writeFileSync(join(dir, 'naive.sh'), script);
    await new Promise<void>((resolve, reject) => {
      const child = spawn('bash', ['naive.sh'], { cwd: dir, stdio: 'ignore' });
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`naive.sh exited ${code}`))));
    });
    const pid = Number(readFileSync(join(dir, 'seen.pid'), 'utf8'));
    // npm is gone; the sandbox (its grandchild) notices its parent went and stops as on SIGTERM.
    expect(await gone(pid)).toBe(true);
    expect(await portIsFree(port)).toBe(true);
    expect(readFileSync(join(dir, '.sandbox', 'data.json'), 'utf8')).toContain('Made in CI');
    expect(readFileSync(join(dir, '.sandbox', 'log'), 'utf8')).toMatch(
      /npm exited: stopping and writing the data file/,
    );
  }, 60_000);
});

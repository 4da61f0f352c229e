/**
 * The previous release's build, for the side-by-side create figures (docs/benchmarks.md): the tree of a git ref
 * (default BENCH_BEFORE_REF, else 58a17bb, the last main before the hardening against hostile input) exported
 * with `git archive` into a temporary folder, compiled with this checkout's node_modules (linked, not installed:
 * the runtime dependencies are the same), and kept there by commit, so a second run reuses it. Answers the path of
 * its dist/cli.js.
 *
 *   node bench/previous-build.mjs [ref]     # builds and prints the path
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './harness.mjs';

export const DEFAULT_BEFORE_REF = process.env.BENCH_BEFORE_REF ?? '58a17bb';

export function previousBuild(ref = DEFAULT_BEFORE_REF) {
  const commit = execFileSync('git', ['-C', ROOT, 'rev-parse', '--verify', `${ref}^{commit}`], {
    encoding: 'utf8',
  }).trim();
  const dir = join(tmpdir(), `esign-bench-before-${commit.slice(0, 12)}`);
  const cli = join(dir, 'dist', 'cli.js');
  // The link to node_modules goes stale when the checkout that made it is removed (a worktree): make it again.
  if (existsSync(cli) && existsSync(join(dir, 'node_modules', 'hono'))) return { commit, cli };
  if (existsSync(cli)) {
    rmSync(join(dir, 'node_modules'), { force: true });
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    return { commit, cli };
  }
  mkdirSync(dir, { recursive: true });
  execFileSync('sh', ['-c', `git -C "${ROOT}" archive ${commit} | tar -x -C "${dir}"`]);
  if (!existsSync(join(dir, 'node_modules'))) symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  return { commit, cli };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(previousBuild(process.argv[2]).cli);

/** For the CI recipe tests (test/cli/ci-process, test/container): docs/ci.md's blocks, ports and processes. */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');

/** The project's own `tsc`, checking without emitting, strict, as a team's Node ESM project (nodenext, ES2022) would. */
export const TSC_AS_A_TEAM = [
  join(ROOT, 'node_modules/typescript/bin/tsc'),
  '--noEmit',
  '--strict',
  '--skipLibCheck',
  '--module',
  'nodenext',
  '--moduleResolution',
  'nodenext',
  '--target',
  'es2022',
];

/** The first fenced block of a language under a heading of docs/ci.md: the recipe as users copy it. */
export function recipe(heading: string, language = 'sh'): string {
  const page = readFileSync(join(ROOT, 'docs', 'ci.md'), 'utf8');
  const at = page.indexOf(`\n## ${heading}\n`);
  if (at < 0) throw new Error(`docs/ci.md: no heading "${heading}"`);
  const block = new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``).exec(page.slice(at));
  if (!block) throw new Error(`docs/ci.md: no ${language} block under "${heading}"`);
  return block[1]!;
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Polls until the process is gone (a stop flushes the data file first, which takes a moment); the test's own time-out
 * bounds it, so a slow machine is given the time it needs.
 */
export async function gone(pid: number): Promise<boolean> {
  while (alive(pid)) await new Promise((r) => setTimeout(r, 50));
  return true;
}

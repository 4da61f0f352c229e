/**
 * Runs the real CLI (compiled dist/cli.js) as a child process, for tests where a real process matters
 * (signals, crashes). Builds dist/ first when it is missing or older than the sources.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI = join(ROOT, 'dist', 'cli.js');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

export function ensureBuilt(): void {
  if (existsSync(CLI) && statSync(CLI).mtimeMs >= newestSource(join(ROOT, 'src'))) return;
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
}

export interface CliProcess {
  child: ChildProcess;
  url: string;
  output(): string;
  exited: Promise<number | null>;
}

/** Starts the CLI on a free port and resolves once it printed where it listens. */
export function startCli(args: string[], options: { cwd?: string } = {}): Promise<CliProcess> {
  const child = spawn(process.execPath, [CLI, '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Control API\s+(http:\/\/\S+)\/__sandbox/.exec(output);
      if (match && /Ready in/.test(output)) {
        child.stdout!.off('data', onData);
        child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
        resolve({ child, url: match[1]!, output: () => output, exited });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    void exited.then((code) => reject(new Error(`CLI exited with ${code} before listening:\n${output}`)));
  });
}

/**
 * Runs a CLI (`cli`: dist/cli.js unless told) on a free port until it prints "Ready in", then stops it (SIGTERM); or
 * until it exits. Resolves once it closed (its last output read, a warning on stderr included) with its exit code and
 * all it printed.
 */
export function runUntilReady(
  args: string[],
  options: { cli?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [options.cli ?? CLI, '--port', '0', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: options.env ?? process.env,
    });
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready in')) child.kill('SIGTERM');
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** One CLI for a whole test file: built if need be and started before its tests, stopped after them. */
export function cliPerFile(args: string[]): () => CliProcess {
  let cli: CliProcess | undefined;
  beforeAll(async () => {
    ensureBuilt();
    cli = await startCli(args);
  }, 120_000);
  afterAll(async () => {
    cli?.child.kill();
    await cli?.exited;
  });
  return () => {
    if (!cli) throw new Error('the CLI of this file has not started');
    return cli;
  };
}

/**
 * For tests of the CLI on a `--data` file: the CLI built before the file's tests; for each test a fresh temporary folder
 * (`data.dir`, named from `prefix`) with the path of the data file in it (`data.file`); `data.start(...args)` starts
 * the CLI on that file; after the test, each CLI it started and that still runs is killed (SIGKILL), and the folder
 * removed.
 */
export function dataFolderEachTest(prefix: string) {
  const running: CliProcess[] = [];
  const data = {
    dir: '',
    file: '',
    async start(...args: string[]): Promise<CliProcess> {
      const p = await startCli(['--data', data.file, ...args]);
      running.push(p);
      return p;
    },
  };
  beforeAll(() => ensureBuilt(), 120_000);
  beforeEach(() => {
    data.dir = mkdtempSync(join(tmpdir(), prefix));
    data.file = join(data.dir, 'data.json');
  });
  afterEach(async () => {
    for (const p of running.splice(0)) {
      if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
      await p.exited;
    }
    rmSync(data.dir, { recursive: true, force: true });
  });
  return data;
}

/**
 * A health probe sent to `url` every 100 ms until `stop()`, which resolves once every probe is answered: true for
 * each answered 200 `{status: 'ok'}`, false for any other answer or a failed request.
 */
export function healthProbes(url: string): { stop(): Promise<boolean[]> } {
  const probes: Promise<boolean>[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      probes.push(
        fetch(`${url}/__sandbox/health`).then(
          async (res) => res.status === 200 && ((await res.json()) as { status?: string }).status === 'ok',
          () => false,
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return Promise.all(probes);
    },
  };
}

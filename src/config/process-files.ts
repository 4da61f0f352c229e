/**
 * The CLI process in a CI script (docs/ci.md): a pid file written at start, a ready file written once the sandbox
 * listens, both removed after the data file is flushed at exit; and, when npm started the sandbox (`npx`,
 * `npm exec`, `npm start`), a stop as soon as the process that started it is gone: `kill $!` on a backgrounded
 * `npx esign-sandbox` ends npm, whose shell child dies with it, and the sandbox must not outlive them holding
 * the port.
 */
import { renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from './options.js';

export interface ProcessFiles {
  /** Written at start with the process id; removed last at exit. */
  pidFile?: string;
  /** Written once listening with the URL (one line); removed at exit. */
  readyFile?: string;
}

/** How often the parent is checked; an unref'd timer, so it never keeps the process alive. */
const PARENT_POLL_MS = 200;

function checkFolder(file: string, flag: string): void {
  const folder = dirname(file);
  let isFolder: boolean;
  try {
    isFolder = statSync(folder).isDirectory();
  } catch {
    isFolder = false;
  }
  if (!isFolder) throw new ConfigError(`The folder of ${flag} ${file} does not exist: create ${folder} first`);
}

/** A file replaced in one rename, so a script polling for it never reads half a line. */
function writeWhole(file: string, text: string, flag: string): void {
  checkFolder(file, flag);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw new ConfigError(`Cannot write ${flag} ${file}: ${(error as Error).message}`);
  }
}

/** At start: the pid file written, and the ready file's folder checked before anything listens. */
export function writePidFile(files: ProcessFiles): void {
  if (files.readyFile) checkFolder(files.readyFile, '--ready-file');
  if (files.pidFile) writeWhole(files.pidFile, `${process.pid}\n`, '--pid-file');
}

export function writeReadyFile(files: ProcessFiles, url: string): void {
  if (files.readyFile) writeWhole(files.readyFile, `${url}\n`, '--ready-file');
}

/** The ready file first (no longer ready), the pid file last (the process is about to be gone). */
export function removeProcessFiles(files: ProcessFiles): void {
  for (const file of [files.readyFile, files.pidFile]) if (file) rmSync(file, { force: true });
}

/**
 * Calls `onGone` once when this process's parent changes (it exited and the process was re-parented), if npm
 * started this process (npm sets `npm_command` for what it runs). Started any other way (a shell's `&`, a
 * service manager, a container's PID 1), the sandbox keeps running until it is signalled, as servers do.
 */
export function watchParent(env: NodeJS.ProcessEnv, onGone: () => void): void {
  if (!env.npm_command) return;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onGone();
  }, PARENT_POLL_MS);
  timer.unref();
}

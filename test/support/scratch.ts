/**
 * Temporary folders for tests: made in os.tmpdir() with a prefix that names the test, and removed when the test
 * that made one finishes (or, made outside a test, when its file or describe block is done), passed or failed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, onTestFinished } from 'vitest';

export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    onTestFinished(remove);
  } catch {
    // Not inside a test: at a file's top level or in a describe block.
    afterAll(remove);
  }
  return dir;
}

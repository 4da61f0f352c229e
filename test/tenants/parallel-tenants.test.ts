/**
 * Eight parallel workers on one sandbox (docs/library.md, "Parallel tests: a tenant with its own clock"): each a child
 * process (tenant-worker.mjs) with its own tenant and clock, advancing by its own steps while the others do. Each
 * checks that its tokens expire, its webhook retries fire and its scenario plays out on its own time, and that it
 * sees no other worker's records, emails, deliveries or journal entries. Run several times so an ordering bug shows.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/index.js';

const WORKER = fileURLToPath(new URL('./tenant-worker.mjs', import.meta.url));
const WORKERS = 8;
const BATCHES = 3;

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ clock: 'frozen', journalLimit: 20_000, webhookLogLimit: 10_000 });
});
afterAll(() => sandbox.close());

function runWorker(index: number): Promise<{ index: number; problems: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WORKER, sandbox.url, String(index), '1'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.trim().split('\n').at(-1) ?? '';
      try {
        resolve(JSON.parse(line));
      } catch {
        reject(new Error(`worker ${index} exited ${code}: ${out}${err}`));
      }
    });
  });
}

describe('eight workers in parallel on one sandbox, each with its own tenant and clock', () => {
  it('each sees its own time, tokens, retries, scenario and records, and nothing of the others, batch after batch', async () => {
    const sandboxNow = (await sandbox.clock.state()).now;
    for (let batch = 0; batch < BATCHES; batch++) {
      const results = await Promise.all(Array.from({ length: WORKERS }, (_, i) => runWorker(i)));
      expect(results.map((r) => r.index)).toEqual([...Array(WORKERS).keys()]);
      for (const result of results) expect(result.problems, `worker ${result.index}, batch ${batch}`).toEqual([]);
    }
    // No worker's advance moved the sandbox's own clock.
    expect((await sandbox.clock.state()).now).toBe(sandboxNow);
  }, 300_000);
});

/**
 * Crash safety of --data with the real CLI: SIGKILL under concurrent write load, restart on the same file.
 * The durability guarantee (docs/persistence.md): a write acknowledged more than the flush window before the
 * process dies is on disk; a graceful stop (SIGTERM/SIGINT) loses nothing.
 */
import { appendFileSync, existsSync, readFileSync, watch } from 'node:fs';
import { basename } from 'node:path';
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { MIN_COMPACT_BYTES } from '../../src/store/persist.js';
import { type CliProcess, dataFolderEachTest } from '../support/cli-process.js';

/** flushMs (50, the default) plus the slack docs/persistence.md states for the disk write in progress. */
const WINDOW_MS = 50 + 450;

const data = dataFolderEachTest('esign-crash-');
const start = () => data.start();

async function post(url: string, body: unknown, token?: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

async function clientToken(base: string): Promise<string> {
  const platform = await post(`${base}/api/token`, {
    data: { action: 'create', apiKey: 'sandboxApiKey', secret: 'sandboxSecret' },
  });
  const client = await post(
    `${base}/api/token`,
    { action: 'create', clientKey: 'demoClient' },
    platform.body.access_token,
  );
  return client.body.access_token;
}

/**
 * Ten workers creating contracts until told to stop or the server goes away; records each acknowledgement. With
 * `pauseAfter`, they send that many creates, then wait for `resume()`.
 */
function load(base: string, token: string, pauseAfter = Number.POSITIVE_INFINITY) {
  const acked: { key: string; at: number }[] = [];
  let stopped = false;
  let sent = 0;
  let resume = () => {};
  const resumed = new Promise<void>((resolve) => (resume = resolve));
  const workers = Array.from({ length: 10 }, async (_, w) => {
    for (let i = 0; !stopped; i++) {
      if (sent++ >= pauseAfter) await resumed;
      try {
        const res = await post(
          `${base}/api/contract`,
          { data: { action: 'create', contract: { name: `w${w}-${i}`, value: '<p>x</p>' } } },
          token,
        );
        if (res.status === 201) acked.push({ key: res.body.contract.contractKey, at: performance.now() });
      } catch {
        return; // connection refused or reset: the server is gone
      }
    }
  });
  return {
    acked,
    /** Acknowledgements older than the flush window: those a kill now must not lose. */
    due: (now = performance.now()) => acked.filter((a) => a.at < now - WINDOW_MS),
    resume,
    stop: async () => {
      stopped = true;
      resume();
      await Promise.all(workers);
    },
  };
}

/** Waits, a turn at a time, until `done()`; the test's own time-out bounds it. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((r) => setTimeout(r, 2));
}

async function storedKeys(base: string): Promise<Set<string>> {
  const token = await clientToken(base);
  const list = await post(`${base}/api/contract`, { data: { action: 'list' } }, token);
  expect(list.status).toBe(200);
  return new Set(list.body.contracts.map((c: { contractKey: string }) => c.contractKey));
}

/**
 * Gives the data file a journal `bytes` long, as a sandbox that took ~36,000 creates since its last snapshot
 * leaves it, so that the next few thousand creates reach the compaction threshold (16 MB of journal) in
 * seconds instead of minutes: a sandbox run once (one contract created, then stopped) supplies the snapshot
 * and a real record to copy.
 */
async function prefillJournal(bytes: number): Promise<number> {
  const seed = await start();
  const token = await clientToken(seed.url);
  const created = await post(
    `${seed.url}/api/contract`,
    { data: { action: 'create', contract: { name: 'template', value: '<p>x</p>' } } },
    token,
  );
  seed.child.kill('SIGTERM');
  expect(await seed.exited).toBe(0);
  const snapshot = JSON.parse(readFileSync(data.file, 'utf8'));
  const template = snapshot.contracts[created.body.contract.contractKey];
  let written = 0;
  let count = 0;
  while (written < bytes) {
    const ops = Array.from({ length: 1000 }, () => {
      const contractKey = `prefill${String(count++).padStart(13, '0')}`;
      return ['contracts', contractKey, { ...template, contractKey, name: `prefilled ${count}` }];
    });
    const line = `${JSON.stringify({ g: snapshot.generation, ops })}\n`;
    appendFileSync(`${data.file}.journal`, line);
    written += Buffer.byteLength(line);
  }
  return count;
}

function assertFilesParse(): void {
  JSON.parse(readFileSync(data.file, 'utf8'));
  for (const journal of [`${data.file}.journal`, `${data.file}.journal.compacting`]) {
    if (!existsSync(journal)) continue;
    const lines = readFileSync(journal, 'utf8').split('\n');
    // Every whole line parses; only a last line without its newline may be torn by the kill.
    for (const line of lines.slice(0, -1)) JSON.parse(line);
  }
}

/**
 * Kills the CLI (SIGKILL) under the writer's load, checks that the files it leaves parse, and starts a second CLI on
 * them: the keys it holds, and the writes acknowledged more than the flush window before the kill.
 */
async function killAndRestart(first: CliProcess, writer: ReturnType<typeof load>) {
  const killedAt = performance.now();
  first.child.kill('SIGKILL');
  await first.exited;
  await writer.stop();

  assertFilesParse();
  const second = await start();
  expect(second.output()).toContain('(loaded)');
  return { second, stored: await storedKeys(second.url), due: writer.due(killedAt) };
}

describe('crash safety of --data', () => {
  it('keeps every write acknowledged more than the flush window before a SIGKILL', async () => {
    const first = await start();
    const token = await clientToken(first.url);
    const writer = load(first.url, token);
    // However fast the machine, 100 writes acknowledged more than the flush window ago, and more under way.
    await until(() => writer.due().length >= 100);
    const { stored, due } = await killAndRestart(first, writer);
    expect(due.length).toBeGreaterThanOrEqual(100);
    expect(due.filter((a) => !stored.has(a.key))).toEqual([]);
  }, 60_000);

  it('keeps every acknowledged write when killed while it compacts', async () => {
    const prefilled = await prefillJournal(MIN_COMPACT_BYTES - 6 * 1024 * 1024);
    const first = await start();
    const token = await clientToken(first.url);
    // 3,000 creates (about 3.3 MB of journal: each journals its contract and its request journal entry) are acknowledged and older than the flush window before the writer
    // goes on, so the kill below has them to keep however fast the machine.
    const writer = load(first.url, token, 3000);
    await until(() => writer.due().length >= 3000);
    // The first compaction starts once the journal reaches 16 MB (the last 6 MB, about 5,500 creates, come from
    // the writer): the journal is then set aside as data.json.journal.compacting until the next snapshot has
    // been written, while appends go on in a fresh journal. Watched, not polled, so that a compaction quicker
    // than a poll's turn is seen all the same.
    const setAside = `${data.file}.journal.compacting`;
    let compacting = false;
    const watcher = watch(data.dir, (_, name) => {
      if (name === basename(setAside)) compacting = true;
    });
    writer.resume();
    await until(() => compacting);
    watcher.close();
    const { second, stored, due } = await killAndRestart(first, writer);
    expect(due.length).toBeGreaterThanOrEqual(3000);
    expect(due.filter((a) => !stored.has(a.key))).toEqual([]);
    expect(stored.size).toBeGreaterThanOrEqual(prefilled + 1 + due.length);
    // The restarted sandbox folds the set-aside journal into a snapshot on its first write.
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(existsSync(setAside)).toBe(false);
    expect(readFileSync(`${data.file}.journal`, 'utf8')).toBe('');
    expect(Object.keys(JSON.parse(readFileSync(data.file, 'utf8')).contracts).length).toBe(stored.size);
  }, 240_000);

  it('loses nothing on a graceful stop (SIGTERM) under write load', async () => {
    const first = await start();
    const token = await clientToken(first.url);
    const writer = load(first.url, token);
    await until(() => writer.acked.length >= 500);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    await writer.stop();

    // A graceful stop folds the journal into the snapshot: the data file alone holds everything.
    expect(readFileSync(`${data.file}.journal`, 'utf8')).toBe('');
    const snapshot = JSON.parse(readFileSync(data.file, 'utf8'));
    for (const { key } of writer.acked) expect(snapshot.contracts[key]).toBeDefined();

    const second = await start();
    const stored = await storedKeys(second.url);
    expect(writer.acked.filter((a) => !stored.has(a.key))).toEqual([]);
  }, 60_000);
});

/**
 * --data persistence: a JSON snapshot replaced atomically plus a journal of changed records, replayed on start
 * and compacted into a new snapshot when it outgrows it (docs/persistence.md).
 */
import { appendFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ContractRecord } from '../src/store/records.js';
import { Store } from '../src/store/store.js';
import { ensureBuilt } from './cli-process.js';
import { testSandbox } from './helpers.js';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'esign-persist-'));
  file = join(dir, 'data.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function contract(key: string, name = `Contract ${key}`): ContractRecord {
  return {
    contractKey: key,
    clientKey: 'c1',
    platformId: 'p1',
    userKey: 'u1',
    name,
    value: '<p>x</p>',
    status: 'Created',
    nextRecipientId: 1,
    nextPlaceholderPosition: 1,
    createTime: 1,
    changeTime: 1,
    history: [],
  };
}

const journal = () => `${file}.journal`;
// Tests that play a crash abandon the first store (release the files, write nothing) before opening again.
const snapshot = () => JSON.parse(readFileSync(file, 'utf8')) as Record<string, any>;

describe('reload', () => {
  it('keeps everything across a graceful stop and start', async () => {
    const first = await testSandbox({ data: file });
    expect(first.sandbox.loadedFromFile).toBe(false);
    const auth = await first.demoAuth();
    const keys: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await first.post('/api/contract', { data: { action: 'create', contract: { name: `C${i}`, value: '<p>x</p>' } } }, auth);
      expect(res.status).toBe(201);
      keys.push(res.body.contract.contractKey);
    }
    await first.close();

    const second = await testSandbox({ data: file });
    expect(second.sandbox.loadedFromFile).toBe(true);
    const list = await second.post('/api/contract', { data: { action: 'list' } }, auth);
    expect(list.status).toBe(200);
    expect(list.body.contracts.map((c: { contractKey: string }) => c.contractKey)).toEqual(expect.arrayContaining(keys));
    await second.close();
  });

  it('leaves one plain JSON file after a graceful stop: the journal is folded in and no temporary file remains', async () => {
    const { store } = await Store.open({ file });
    store.contracts.insert(contract('a'));
    await store.close();
    expect(snapshot().contracts.a.name).toBe('Contract a');
    expect(readFileSync(journal(), 'utf8')).toBe('');
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('applies a reset (whole state replaced) by writing a new snapshot', async () => {
    const { store } = await Store.open({ file });
    store.contracts.insert(contract('a'));
    await store.flush();
    store.replace({ ...store.data, contracts: { b: contract('b') } });
    await store.flush();
    expect(Object.keys(snapshot().contracts)).toEqual(['b']);
    await store.close();
    const reopened = await Store.open({ file });
    expect(reopened.store.contracts.all().map((c) => c.contractKey)).toEqual(['b']);
    await reopened.store.close();
  });
});

describe('journal', () => {
  it('writes each flush as one line holding the latest state of every record that changed', async () => {
    const { store } = await Store.open({ file });
    await store.flush(); // the first write of a new file is its snapshot
    store.contracts.insert(contract('a'));
    store.contracts.update('a', { name: 'renamed' });
    store.contracts.insert(contract('b'));
    store.contracts.delete('b');
    await store.flush();
    const lines = readFileSync(journal(), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!);
    expect(line.ops).toEqual([
      ['contracts', 'a', expect.objectContaining({ name: 'renamed' })],
      ['contracts', 'b', null],
    ]);
    await store.close();
  });

  it('is replayed on start when the process died before compacting', async () => {
    const { store } = await Store.open({ file });
    await store.flush();
    store.contracts.insert(contract('a'));
    await store.flush();
    store.contracts.insert(contract('b'));
    store.contracts.update('a', { status: 'Sent' });
    await store.flush();
    await store.abandon(); // as if the process had been killed here
    expect(snapshot().contracts).toEqual({});
    const { store: again, loaded } = await Store.open({ file });
    expect(loaded).toBe(true);
    expect(again.contracts.get('a')?.status).toBe('Sent');
    expect(again.contracts.get('b')).toBeDefined();
    expect(again.contracts.where('client', 'c1')).toHaveLength(2);
    await again.close();
  });

  it('cuts off a line torn by a crash and appends after the last whole line', async () => {
    const { store } = await Store.open({ file });
    store.contracts.insert(contract('a'));
    await store.flush();
    store.contracts.insert(contract('b'));
    await store.flush();
    const whole = readFileSync(journal(), 'utf8');
    await store.abandon();
    appendFileSync(journal(), '{"g":1,"ops":[["contracts","c",{"contractKey":"c","na');
    const { store: again } = await Store.open({ file });
    expect(again.contracts.has('b')).toBe(true);
    expect(again.contracts.has('c')).toBe(false);
    expect(readFileSync(journal(), 'utf8')).toBe(whole);
    again.contracts.insert(contract('d'));
    await again.flush();
    await again.abandon();
    const third = await Store.open({ file });
    expect(third.store.contracts.has('d')).toBe(true);
    await third.store.close();
  });

  it('refuses to start when a line in the middle is damaged, naming the line', async () => {
    const { store } = await Store.open({ file });
    await store.flush();
    store.contracts.insert(contract('a'));
    await store.flush();
    store.contracts.insert(contract('b'));
    await store.flush();
    const lines = readFileSync(journal(), 'utf8').split('\n');
    await store.abandon();
    lines[0] = 'not json';
    writeFileSync(journal(), lines.join('\n'));
    await expect(Store.open({ file })).rejects.toThrow(/damaged at line 1/);
  });

  it('refuses a data file that is not JSON instead of starting empty over it', async () => {
    writeFileSync(file, '{"contracts": {');
    await expect(Store.open({ file })).rejects.toThrow(/not valid JSON/);
  });
});

describe('compaction', () => {
  it('folds the journal into a new snapshot once it outgrows the snapshot, and empties the journal', async () => {
    const { store } = await Store.open({ file, minCompactBytes: 2000 });
    await store.flush();
    const generations = new Set<number>();
    for (let i = 0; i < 60; i++) {
      store.contracts.insert(contract(`k${i}`));
      await store.flush();
      generations.add(snapshot().generation);
      // The data file parses at every point: it is only ever replaced whole.
      expect(Object.keys(snapshot().contracts).length).toBeLessThanOrEqual(i + 1);
    }
    expect(generations.size).toBeGreaterThan(2);
    // Snapshot size doubles between compactions, so the journal stays below max(floor, snapshot) + one line.
    expect(readFileSync(journal(), 'utf8').length).toBeLessThan(Math.max(2000, readFileSync(file, 'utf8').length) + 1000);
    await store.abandon();
    const { store: again } = await Store.open({ file });
    expect(again.contracts.size).toBe(60);
    await again.close();
  });

  it('ignores an older generation\'s journal left beside a newer snapshot (crash between snapshot and truncation)', async () => {
    const { store } = await Store.open({ file, minCompactBytes: 1 });
    await store.flush();
    store.contracts.insert(contract('a', 'first'));
    await store.flush(); // appended to the journal
    const stale = readFileSync(journal(), 'utf8');
    expect(stale).toContain('first');
    store.contracts.update('a', { name: 'second' });
    await store.flush(); // journal ≥ floor: compacts
    expect(snapshot().contracts.a.name).toBe('second');
    await store.abandon();
    writeFileSync(journal(), stale); // as if the process died before emptying it
    const { store: again } = await Store.open({ file });
    expect(again.contracts.get('a')?.name).toBe('second');
    await again.close();
  });

  it('never leaves the data file unparsable while writes and compactions run', async () => {
    const { store } = await Store.open({ file, minCompactBytes: 5000, flushMs: 1 });
    let reads = 0;
    let writing = true;
    const reader = (async () => {
      while (writing) {
        if (existsSync(file)) {
          JSON.parse(readFileSync(file, 'utf8'));
          reads++;
        }
        await new Promise((r) => setImmediate(r));
      }
    })();
    for (let i = 0; i < 300; i++) {
      store.contracts.insert(contract(`k${i}`));
      if (i % 10 === 0) await new Promise((r) => setTimeout(r, 2));
    }
    await store.flush();
    writing = false;
    await reader;
    expect(reads).toBeGreaterThan(0);
    await store.close();
    expect(Object.keys(snapshot().contracts)).toHaveLength(300);
  });
});

describe('snapshot serialisation', () => {
  it('writes the same JSON as JSON.stringify, a slice at a time', async () => {
    const { serialise } = await import('../src/store/persist.js');
    const { emptyData } = await import('../src/store/records.js');
    const data = emptyData();
    for (let i = 0; i < 4500; i++) data.contracts[`k${i}`] = contract(`k${i}`, `name "${i}"\n`);
    expect(JSON.parse(await serialise(data, 3))).toEqual({ ...data, generation: 3 });
  });

  it('keeps records changed while a snapshot is being written: the journal after it carries their latest state', async () => {
    const { store } = await Store.open({ file, minCompactBytes: 1 });
    for (let i = 0; i < 5000; i++) store.contracts.insert(contract(`k${i}`));
    await store.flush(); // the first snapshot
    store.contracts.update('k0', { name: 'journaled' });
    await store.flush(); // one journal line
    store.contracts.update('k1', { name: 'before compaction' });
    store.replace(store.data); // the next flush writes a snapshot
    const compaction = store.flush();
    // While the compaction serialises in slices: change, delete and insert records.
    await new Promise((r) => setImmediate(r));
    store.contracts.update('k4999', { name: 'during' });
    store.contracts.delete('k4998');
    store.contracts.insert(contract('new'));
    await compaction;
    expect(snapshot().generation).toBe(2);
    await store.flush();
    await store.abandon();
    const { store: again } = await Store.open({ file });
    expect(again.contracts.get('k0')?.name).toBe('journaled');
    expect(again.contracts.get('k1')?.name).toBe('before compaction');
    expect(again.contracts.get('k4999')?.name).toBe('during');
    expect(again.contracts.has('k4998')).toBe(false);
    expect(again.contracts.has('new')).toBe(true);
    expect(again.contracts.size).toBe(5000);
    await again.close();
  });
});

describe('compaction on a worker thread', () => {
  // The worker runs compiled JavaScript: the one tsc writes to dist/ (the tests run from the sources).
  const WORKER = new URL('../dist/store/compact-worker.js', import.meta.url);
  const rotated = () => `${journal()}.compacting`;
  beforeAll(() => ensureBuilt(), 120_000);

  it('folds snapshot and set-aside journal into the next snapshot while writes continue in a fresh journal', async () => {
    const { store } = await Store.open({ file, minCompactBytes: 2000, compactWorker: WORKER });
    await store.flush(); // the first snapshot (generation 1), written from memory
    // One journal line above the floor: the next flush sets the journal aside.
    for (let i = 0; i < 20; i++) store.contracts.insert(contract(`k${i}`));
    await store.flush();
    expect(readFileSync(journal(), 'utf8').length).toBeGreaterThanOrEqual(2000);
    expect(existsSync(rotated())).toBe(false);
    store.contracts.insert(contract('trigger'));
    await store.flush(); // sets the journal aside, starts the worker, appends this change to a fresh journal
    // Writes go on while the worker works: they land in the new journal, with the next generation.
    store.contracts.update('k0', { name: 'during' });
    store.contracts.delete('k1');
    await store.flush();
    const fresh = readFileSync(journal(), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(fresh.map((l) => l.g)).toEqual([2, 2]);
    expect(JSON.stringify(fresh)).toContain('during');
    await store.compacted();
    expect(existsSync(rotated())).toBe(false);
    const written = snapshot();
    expect(written.generation).toBe(2);
    // The worker wrote the state as of the rotation, from the files: the later changes are in the journal only.
    expect(Object.keys(written.contracts)).toHaveLength(20);
    expect(written.contracts.k0.name).toBe('Contract k0');
    await store.abandon();
    const { store: again } = await Store.open({ file });
    expect(again.contracts.get('k0')?.name).toBe('during');
    expect(again.contracts.has('k1')).toBe(false);
    expect(again.contracts.has('trigger')).toBe(true);
    expect(again.contracts.size).toBe(20);
    await again.close();
  });

  it('reloads everything when the process dies while the worker compacts, and tidies up on the next flush', async () => {
    // A worker that never finishes: the process "dies" with the journal set aside and snapshot(g) not yet replaced.
    const stuck = new URL('data:text/javascript,setInterval(() => {}, 1000)');
    const { store } = await Store.open({ file, minCompactBytes: 2000, compactWorker: stuck });
    await store.flush();
    // One journal line above the floor: the next flush sets the journal aside.
    for (let i = 0; i < 20; i++) store.contracts.insert(contract(`k${i}`));
    await store.flush();
    store.contracts.update('k0', { name: 'in the set-aside journal' });
    await store.flush(); // rotates
    store.contracts.update('k2', { name: 'in the fresh journal' });
    await store.flush();
    await store.abandon(); // kills the worker wherever it is
    expect(existsSync(rotated())).toBe(true);
    const { store: again } = await Store.open({ file, compactWorker: WORKER });
    expect(again.contracts.size).toBe(20);
    expect(again.contracts.get('k0')?.name).toBe('in the set-aside journal');
    expect(again.contracts.get('k2')?.name).toBe('in the fresh journal');
    // The first flush after such a start folds everything into a snapshot newer than every line on disk.
    await again.flush();
    expect(existsSync(rotated())).toBe(false);
    expect(readFileSync(journal(), 'utf8')).toBe('');
    expect(snapshot().generation).toBe(3);
    expect(snapshot().contracts.k2.name).toBe('in the fresh journal');
    await again.close();
  });

  it('skips a set-aside journal left beside the snapshot the worker already wrote (died before removing it)', async () => {
    const { store } = await Store.open({ file, minCompactBytes: 2000, compactWorker: WORKER });
    await store.flush();
    // One journal line above the floor: the next flush sets the journal aside.
    for (let i = 0; i < 20; i++) store.contracts.insert(contract(`k${i}`, 'old'));
    await store.flush();
    const setAside = readFileSync(journal(), 'utf8');
    store.contracts.update('k5', { name: 'new' });
    await store.flush(); // rotates; the change goes to the fresh journal
    await store.compacted();
    store.contracts.update('k6', { name: 'new' });
    await store.flush();
    await store.abandon();
    writeFileSync(rotated(), setAside); // as if the process died before removing it
    const { store: again } = await Store.open({ file });
    expect(again.contracts.get('k5')?.name).toBe('new');
    expect(again.contracts.get('k6')?.name).toBe('new');
    expect(again.contracts.get('k7')?.name).toBe('old');
    await again.close();
  });

  it('falls back to compacting on the main thread, with a warning, when the worker fails', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    try {
      const { store } = await Store.open({ file, minCompactBytes: 2000, compactWorker: new URL('./no-such-worker.js', import.meta.url) });
      await store.flush();
      // One journal line above the floor: the next flush sets the journal aside.
      for (let i = 0; i < 25; i++) store.contracts.insert(contract(`k${i}`));
      await store.flush();
      store.contracts.insert(contract('trigger'));
      await store.flush(); // sets the journal aside; the worker cannot start
      await store.compacted();
      store.contracts.update('k3', { name: 'after the failure' });
      await store.flush(); // by now the fallback has written a snapshot from memory
      await new Promise((r) => setImmediate(r));
      expect(warnings.join('\n')).toMatch(/compaction worker failed/);
      expect(existsSync(rotated())).toBe(false);
      expect(Object.keys(snapshot().contracts)).toHaveLength(26);
      expect(snapshot().generation).toBe(3); // 1 first snapshot, 2 given to the failed worker's, 3 the fallback's
      await store.abandon();
      const { store: again } = await Store.open({ file });
      expect(again.contracts.size).toBe(26);
      expect(again.contracts.get('k3')?.name).toBe('after the failure');
      await again.close();
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('leaves one plain JSON file after a graceful stop during a worker compaction', async () => {
    const { store } = await Store.open({ file, minCompactBytes: 2000, compactWorker: WORKER });
    await store.flush();
    for (let i = 0; i < 30; i++) {
      store.contracts.insert(contract(`k${i}`));
      await store.flush();
    }
    store.contracts.update('k0', { name: 'last' });
    await store.close();
    expect(readFileSync(journal(), 'utf8')).toBe('');
    expect(existsSync(rotated())).toBe(false);
    expect(Object.keys(snapshot().contracts)).toHaveLength(30);
    expect(snapshot().contracts.k0.name).toBe('last');
  });
});

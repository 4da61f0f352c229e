/**
 * --data persistence: a JSON snapshot replaced atomically plus a journal of changed records, replayed on start
 * and compacted into a new snapshot when it outgrows it (docs/persistence.md).
 */
import { appendFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ContractRecord } from '../../src/store/records.js';
import { Store } from '../../src/store/store.js';
import { testSandbox } from '../support/helpers.js';

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
      const res = await first.post(
        '/api/contract',
        { data: { action: 'create', contract: { name: `C${i}`, value: '<p>x</p>' } } },
        auth,
      );
      expect(res.status).toBe(201);
      keys.push(res.body.contract.contractKey);
    }
    await first.close();

    const second = await testSandbox({ data: file });
    expect(second.sandbox.loadedFromFile).toBe(true);
    const list = await second.post('/api/contract', { data: { action: 'list' } }, auth);
    expect(list.status).toBe(200);
    expect(list.body.contracts.map((c: { contractKey: string }) => c.contractKey)).toEqual(
      expect.arrayContaining(keys),
    );
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
    expect(readFileSync(journal(), 'utf8').length).toBeLessThan(
      Math.max(2000, readFileSync(file, 'utf8').length) + 1000,
    );
    await store.abandon();
    const { store: again } = await Store.open({ file });
    expect(again.contracts.size).toBe(60);
    await again.close();
  });

  it("ignores an older generation's journal left beside a newer snapshot (crash between snapshot and truncation)", async () => {
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
      // At least one read, whatever the machine's speed: the data file exists once the first flush is done.
      while (writing || reads === 0) {
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
  it('writes the same JSON as JSON.stringify, a chunk at a time', async () => {
    const { snapshotChunks } = await import('../../src/store/snapshot-file.js');
    const { emptyData } = await import('../../src/store/records.js');
    const data = emptyData();
    for (let i = 0; i < 4500; i++) data.contracts[`k${i}`] = contract(`k${i}`, `name "${i}"\n`);
    const chunks: string[] = [];
    for await (const chunk of snapshotChunks(data, 3)) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(2);
    expect(JSON.parse(chunks.join(''))).toEqual({ ...data, generation: 3 });
  });

  it('writes kept collections beside the records, an empty one and one gone record included', async () => {
    const { snapshotChunks } = await import('../../src/store/snapshot-file.js');
    const { emptyData } = await import('../../src/store/records.js');
    const rows = new Map(Array.from({ length: 2500 }, (_, i) => [`m${i}`, { body: `{"n":${i}}` }]));
    const collection = (map: Map<string, unknown>) => ({
      keys: () => [...map.keys(), 'gone'],
      record: (key: string) => map.get(key),
      restore: () => undefined,
    });
    const kept = new Map([
      ['none', collection(new Map())],
      ['messages', collection(rows)],
    ]);
    let text = '';
    for await (const chunk of snapshotChunks(emptyData(), 1, kept)) text += chunk;
    expect(JSON.parse(text)).toEqual({
      ...emptyData(),
      kept: { none: {}, messages: Object.fromEntries(rows) },
      generation: 1,
    });
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

describe('a snapshot that fails while it is written', () => {
  it('leaves the data file as it was and no part of a file beside it', async () => {
    const { store } = await Store.open({ file });
    store.contracts.insert(contract('k0'));
    await store.flush();
    // JSON.stringify throws on a BigInt: the 2,501st record fails after two chunks were written.
    for (let i = 1; i <= 2500; i++) store.contracts.insert(contract(`k${i}`));
    store.contracts.insert({ ...contract('bad'), createTime: 1n as unknown as number });
    store.replace(store.data);
    await expect(store.flush()).rejects.toThrow(/BigInt/);
    expect(Object.keys(snapshot().contracts)).toEqual(['k0']);
    expect(readdirSync(dir).sort()).toEqual(['data.json', 'data.json.journal']);
    store.contracts.delete('bad');
    await store.flush();
    expect(Object.keys(snapshot().contracts)).toHaveLength(2501);
    await store.close();
  });
});

describe('a journal set aside by a compaction the process did not live to finish', () => {
  it('is replayed on load, and folded into a snapshot and removed by the first flush', async () => {
    const { store } = await Store.open({ file });
    await store.flush();
    for (let i = 0; i < 3; i++) store.contracts.insert(contract(`k${i}`));
    await store.flush();
    await store.close();
    const generation = snapshot().generation as number;
    // As a process killed mid-compaction leaves it: snapshot(g), the set-aside journal of generation g,
    // and lines of generation g+1 in the live journal.
    writeFileSync(
      `${journal()}.compacting`,
      `${JSON.stringify({ g: generation, ops: [['contracts', 'k0', { ...contract('k0'), name: 'set aside' }]] })}\n`,
    );
    writeFileSync(
      journal(),
      `${JSON.stringify({ g: generation + 1, ops: [['contracts', 'k1', { ...contract('k1'), name: 'fresh' }]] })}\n`,
    );
    const { store: again } = await Store.open({ file });
    expect(again.contracts.get('k0')?.name).toBe('set aside');
    expect(again.contracts.get('k1')?.name).toBe('fresh');
    await again.flush();
    expect(existsSync(`${journal()}.compacting`)).toBe(false);
    expect(readFileSync(journal(), 'utf8')).toBe('');
    expect(snapshot().contracts.k0.name).toBe('set aside');
    expect(snapshot().generation).toBeGreaterThan(generation + 1);
    await again.close();
  });
});

/**
 * Main-thread CPU of one compaction of 80,000 contracts, on the main thread and on the worker thread, read from
 * /proc (Linux; 10 ms ticks). Measures the compiled dist/ (`npm run build` first): `node bench/compaction-cpu.mjs`.
 * A figure the throughput benchmark cannot isolate on a busy 2-core machine (docs/benchmarks.md).
 */
import { Store } from '../dist/store/store.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const main = () => { const f = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
const all = () => { const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
const rec = (i) => ({ contractKey: 'k' + i, clientKey: 'c1', platformId: 'p1', userKey: 'u1', name: 'Bench agreement ' + i, value: '<p>The parties agree to the terms.</p>', status: 'Created', nextRecipientId: 1, nextPlaceholderPosition: 1, createTime: 1763700000000 + i, changeTime: 1763700000000 + i, history: [{ at: 1763700000000, event: 'created' }] });
for (const worker of [false, undefined]) {
  const dir = mkdtempSync(join(tmpdir(), 'esign-compaction-'));
  const file = join(dir, 'd.json');
  const { store } = await Store.open({ file, ...(worker === false ? { compactWorker: false } : {}) });
  await store.flush();
  for (let i = 0; i < 40000; i++) store.contracts.insert(rec(i));
  await store.flush(); // journal line
  store.replace(store.data); await store.flush(); // snapshot of 40k from memory
  for (let i = 40000; i < 80000; i++) store.contracts.insert(rec(i));
  await store.flush(); // journal ≥ snapshot
  store.contracts.update('k1', { name: 'x' });
  const t0 = performance.now(); const c0 = main(); const a0 = all();
  await store.flush(); await store.compacted();
  const c1 = main(); const a1 = all(); const t1 = performance.now();
  console.log(worker === false ? 'main thread' : 'worker     ', `compaction of 80k: main-thread CPU ${c1 - c0} ms, all threads ${a1 - a0} ms, wall ${Math.round(t1 - t0)} ms, snapshot ${(readFileSync(file).length / 1e6).toFixed(1)} MB`);
  await store.abandon();
  rmSync(dir, { recursive: true, force: true });
}

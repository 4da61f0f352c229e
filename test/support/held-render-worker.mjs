/**
 * A render worker for tests (the protocol of src/render/thread.ts): a `pdf` or `docx` job whose title names a file
 * path writes `<path>.started`, then keeps its thread busy (blocked, as a long render would) until the test creates
 * `<path>`, and answers `%PDF-held`. So a test knows for certain that a job is drawing while it looks at the main
 * thread, whatever the machine's speed.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';

const nap = new Int32Array(new SharedArrayBuffer(4));

parentPort?.on('message', ({ id, method, arg }) => {
  if (method === 'sanitise') return parentPort.postMessage({ id, ok: true, value: arg });
  if (method === 'inspectPdf') return parentPort.postMessage({ id, ok: true, value: { pages: [] } });
  const gate = arg.title;
  writeFileSync(`${gate}.started`, '');
  while (!existsSync(gate)) Atomics.wait(nap, 0, 0, 5);
  parentPort.postMessage({ id, ok: true, value: new TextEncoder().encode('%PDF-held') });
});

/**
 * Uploads at once (docs/benchmarks.md): 50 `upload_pdf` of a 5 MB PDF sent together, and the longest the sandbox's
 * event loop went without a turn meanwhile (target < 100 ms), measured with perf_hooks.monitorEventLoopDelay and a
 * 10 ms timer (harness.mjs `timedStall`). The sandbox (the compiled library, dist/) runs in this process; the
 * uploads come from a child process, so building and sending 250 MB of bodies is not counted as the server's.
 *
 * `node bench/uploads.mjs` prints the figures; bench/run.mjs calls `uploadFigures()`.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { timedStall, work } from './harness.mjs';
import { STALL_TARGET_MS } from './stalls.mjs';

/** The child: posts the file to every URL at once; prints the statuses as JSON. */
const SENDER = `
const [file, key, ...urls] = process.argv.slice(1);
const bytes = require('node:fs').readFileSync(file);
Promise.all(urls.map(async (url) => {
  const form = new FormData();
  form.set('pdf', new Blob([bytes], { type: 'application/pdf' }), 'upload.pdf');
  const res = await fetch(url, { method: 'POST', headers: { 'x-service-key': key }, body: form });
  await res.arrayBuffer();
  return res.status;
})).then((statuses) => console.log(JSON.stringify(statuses)));
`;

/** A PDF of about `mb` megabytes: 10 pages and incompressible bytes attached. */
async function pdfOf(mb) {
  const { PDFDocument } = await import('pdf-lib');
  const pdf = await PDFDocument.create();
  for (let i = 0; i < 10; i++) pdf.addPage([595.28, 841.89]);
  const filler = new Uint8Array(Math.max(1024, mb * 1024 * 1024 - 4096));
  for (let i = 0; i < filler.length; i += 65536) globalThis.crypto.getRandomValues(filler.subarray(i, i + 65536));
  await pdf.attach(filler, 'filler.bin', { mimeType: 'application/octet-stream' });
  return pdf.save({ useObjectStreams: false });
}

/**
 * The figures as rows: `{ figure, ours, unit, target, verdict, note? }`. `index`: another build's dist/index.js (a
 * side-by-side run with bench/previous-build.mjs).
 */
export async function uploadFigures({
  quick = false,
  count = quick ? 10 : 50,
  mb = 5,
  index = '../dist/index.js',
} = {}) {
  const { startSandbox } = await import(index);
  const sandbox = await startSandbox({ clock: 'frozen', log: 'none' });
  try {
    const file = join(work, `upload-${mb}mb.pdf`);
    writeFileSync(file, await pdfOf(mb));
    const urls = [];
    for (let i = 0; i < count; i++) {
      const res = await fetch(`${sandbox.url}/api/contract`, {
        method: 'POST',
        headers: { 'x-service-key': sandbox.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({
          data: { action: 'create', clientKey: sandbox.clientKey, contract: { name: `U${i}`, contractType: 'pdf' } },
        }),
      });
      const { contract } = await res.json();
      urls.push(`${sandbox.url}/api/upload_pdf?contractKey=${contract.contractKey}&clientKey=${sandbox.clientKey}`);
    }
    const { ms, status, stall } = await timedStall(
      () =>
        new Promise((resolve, reject) => {
          const child = spawn(process.execPath, ['-e', SENDER, file, sandbox.apiKey, ...urls], {
            stdio: ['ignore', 'pipe', 'inherit'],
          });
          let out = '';
          child.stdout.on('data', (c) => (out += c));
          child.on('exit', (code) =>
            code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`sender exited ${code}`)),
          );
        }),
    );
    const counts = new Map();
    for (const s of status) counts.set(s, (counts.get(s) ?? 0) + 1);
    const tally = [...counts].map(([s, n]) => `${n}× ${s}`).join(', ');
    return [
      {
        figure: `longest main-thread stall, ${count} uploads of ${mb} MB at once`,
        ours: stall,
        unit: 'ms',
        target: `< ${STALL_TARGET_MS} ms`,
        verdict: stall < STALL_TARGET_MS ? 'met' : 'MISSED',
        note: `answered ${tally} in ${(ms / 1000).toFixed(1)} s`,
      },
    ];
  } finally {
    await sandbox.close();
  }
}

// node bench/uploads.mjs [mb] [other/dist/index.js]
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [mb = '5', index] = process.argv.slice(2);
  const options = { quick: process.env.BENCH_QUICK === '1', mb: Number(mb), ...(index ? { index } : {}) };
  for (const row of await uploadFigures(options)) console.log(row);
  process.exit(0);
}

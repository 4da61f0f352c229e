/**
 * Document figures (docs/benchmarks.md, docs/documents.md): download_pdf of a 20-page HTML contract and of a
 * 20-page uploaded PDF with 40 placed fields (signed, so signatures and the audit trail are drawn), each timed
 * from the request to the last byte over real HTTP; the upload of a 10 MB PDF; and the sandbox's heap after 100
 * downloads next to its heap before them (both after a full garbage collection).
 *
 * Then the worst documents under the limits (docs/documents.md "Work limits"): each rendered to PDF and DOCX, its
 * time to answer (or to be refused with a 422), and the longest the event loop of the sandbox's own thread went
 * without a turn meanwhile (target < 100 ms: rendering runs on a worker thread), measured with
 * perf_hooks.monitorEventLoopDelay and with a 10 ms timer's longest late arrival; and a compression bomb upload.
 *
 * Runs the compiled library (dist/, `npm run build` first) in this process, so its heap can be read.
 * `node bench/documents.mjs` prints the figures; bench/run.mjs calls `documentFigures()`.
 * Environment: BENCH_QUICK=1 takes fewer samples.
 */
import { performance } from 'node:perf_hooks';
import { deflateSync } from 'node:zlib';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { fileURLToPath } from 'node:url';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { agreementHtml, timedStall } from './harness.mjs';

const DOWNLOAD_TARGET_MS = 200;
/** What "back to its level" allows: the heap after the downloads within this many MB of the heap before. */
const MEMORY_SLACK_MB = 8;
/** The longest the sandbox's event loop may go without a turn while a document renders. */
const STALL_TARGET_MS = 100;

function gc() {
  if (typeof globalThis.gc === 'function') return globalThis.gc();
  setFlagsFromString('--expose_gc');
  return runInNewContext('gc')();
}

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
};

/** The figures as rows: `{ figure, ours, unit, target, verdict, note? }`. */
export async function documentFigures({ quick = process.env.BENCH_QUICK === '1', log = () => {} } = {}) {
  const { startSandbox } = await import('../dist/index.js');
  const samples = quick ? 8 : 40;
  const sandbox = await startSandbox({ clock: 'frozen', log: 'none', maxUpload: '16mb' });
  const api = { 'x-service-key': sandbox.apiKey };
  const clientKey = sandbox.clientKey;
  const post = async (path, data) => {
    const res = await fetch(`${sandbox.url}${path}`, {
      method: 'POST',
      headers: { ...api, 'content-type': 'application/json' },
      body: JSON.stringify({ data: { clientKey, ...data } }),
    });
    const body = await res.json();
    if (res.status >= 300) throw new Error(`${path} ${data.action}: ${res.status} ${JSON.stringify(body)}`);
    return body;
  };
  const get = async (path) => {
    const t0 = performance.now();
    const res = await fetch(`${sandbox.url}${path}`, { headers: api });
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${Buffer.from(bytes).toString()}`);
    return { ms: performance.now() - t0, bytes };
  };
  const uploadFile = async (contractKey, bytes) => {
    const form = new FormData();
    form.set('pdf', new Blob([bytes], { type: 'application/pdf' }), 'bench.pdf');
    const t0 = performance.now();
    const res = await fetch(`${sandbox.url}/api/upload_pdf?contractKey=${contractKey}&clientKey=${clientKey}`, {
      method: 'POST',
      headers: api,
      body: form,
    });
    const body = await res.json();
    if (res.status !== 201) throw new Error(`upload: ${res.status} ${JSON.stringify(body)}`);
    return performance.now() - t0;
  };
  const rows = [];
  const add = (row) => {
    rows.push(row);
    log(row);
  };

  try {
    // 1. A 20-page HTML contract: headings, paragraphs, lists, a table per section.
    let html = '<h1>Master services agreement</h1>';
    let htmlKey;
    let pages = 0;
    for (let n = 20; pages < 20; n += 10) {
      html = agreementHtml(n);
      htmlKey = (await post('/api/contract', { action: 'create', contract: { name: 'Bench HTML', value: html } }))
        .contract.contractKey;
      pages = (
        await PDFDocument.load((await get(`/api/download_pdf?contractKey=${htmlKey}&clientKey=${clientKey}`)).bytes)
      ).getPageCount();
    }
    const htmlTimes = [];
    for (let i = 0; i < samples; i++)
      htmlTimes.push((await get(`/api/download_pdf?contractKey=${htmlKey}&clientKey=${clientKey}`)).ms);
    const htmlMedian = quantile(htmlTimes, 0.5);
    add({
      figure: `download_pdf, ${pages}-page HTML contract: median`,
      ours: htmlMedian,
      unit: 'ms',
      target: `< ${DOWNLOAD_TARGET_MS} ms`,
      verdict: htmlMedian < DOWNLOAD_TARGET_MS ? 'met' : 'MISSED',
    });
    add({
      figure: `download_pdf, ${pages}-page HTML contract: p99`,
      ours: quantile(htmlTimes, 0.99),
      unit: 'ms',
      target: 'reported',
      verdict: 'reported',
      note: `${samples} downloads one after the other`,
    });

    // 2. A 20-page uploaded PDF with 40 placed fields, signed by both recipients (signatures, audit trail).
    const source = await PDFDocument.create();
    const font = await source.embedFont(StandardFonts.Helvetica);
    for (let i = 0; i < 20; i++)
      source.addPage([595.28, 841.89]).drawText(`Uploaded page ${i + 1}`, { x: 50, y: 780, size: 14, font });
    const pdfKey = (
      await post('/api/contract', { action: 'create', contract: { name: 'Bench PDF', contractType: 'pdf' } })
    ).contract.contractKey;
    await uploadFile(pdfKey, await source.save());
    await post('/api/recipient', {
      action: 'send',
      contractKey: pdfKey,
      recipients: [
        { fullname: 'Grace Hopper', email: 'grace@example.com', action: 'sign', position: 1 },
        { fullname: 'Alan Turing', email: 'alan@example.com', action: 'sign', position: 2 },
      ],
    });
    const recipients = (await post('/api/recipient', { action: 'list', contractKey: pdfKey })).recipients.map(
      (r) => r.recipientKey,
    );
    const placeholders = recipients.flatMap((r) =>
      [1, 2, 3, 4].map((type) => ({
        placeholderKey: `${r}_${type}`,
        isSpecial: true,
        specialType: type,
        insertion: Array.from({ length: 5 }, (_, k) => ({
          id: String(k + 1),
          pageId: String((k * 4 + type) % 20),
          positionX: String(100 + type * 150),
          positionY: String(200 + k * 150),
          width: '140',
          height: '40',
        })),
      })),
    );
    await post('/api/placeholder', { action: 'update', contractKey: pdfKey, placeholders });
    for (const r of recipients) await sandbox.recipients.sign(r);
    const pdfTimes = [];
    for (let i = 0; i < samples; i++)
      pdfTimes.push((await get(`/api/download_pdf?contractKey=${pdfKey}&clientKey=${clientKey}`)).ms);
    const pdfMedian = quantile(pdfTimes, 0.5);
    const placed = placeholders.reduce((n, p) => n + p.insertion.length, 0);
    add({
      figure: `download_pdf, 20-page uploaded PDF, ${placed} fields, signed: median`,
      ours: pdfMedian,
      unit: 'ms',
      target: `< ${DOWNLOAD_TARGET_MS} ms`,
      verdict: pdfMedian < DOWNLOAD_TARGET_MS ? 'met' : 'MISSED',
    });
    add({
      figure: `download_pdf, 20-page uploaded PDF, ${placed} fields, signed: p99`,
      ours: quantile(pdfTimes, 0.99),
      unit: 'ms',
      target: 'reported',
      verdict: 'reported',
      note: 'with signatures drawn and the audit trail page',
    });

    // 3. Upload of a 10 MB PDF: 20 pages plus 10 MB of incompressible data attached to the document.
    const big = await PDFDocument.create();
    for (let i = 0; i < 20; i++) big.addPage([595.28, 841.89]);
    const filler = new Uint8Array(10 * 1024 * 1024);
    for (let i = 0; i < filler.length; i += 65536) globalThis.crypto.getRandomValues(filler.subarray(i, i + 65536));
    await big.attach(filler, 'filler.bin', { mimeType: 'application/octet-stream' });
    const bigBytes = await big.save({ useObjectStreams: false });
    const uploadTimes = [];
    for (let i = 0; i < (quick ? 2 : 5); i++) {
      const key = (
        await post('/api/contract', { action: 'create', contract: { name: `Big ${i}`, contractType: 'pdf' } })
      ).contract.contractKey;
      uploadTimes.push(await uploadFile(key, bigBytes));
    }
    add({
      figure: `upload_pdf, ${(bigBytes.byteLength / 1024 / 1024).toFixed(1)} MB PDF: median`,
      ours: quantile(uploadTimes, 0.5),
      unit: 'ms',
      target: 'reported',
      verdict: 'reported',
      note: `${uploadTimes.length} uploads`,
    });

    // 4. The heap after 100 downloads, next to the heap before them.
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 100; i++)
      await get(`/api/download_pdf?contractKey=${i % 2 ? pdfKey : htmlKey}&clientKey=${clientKey}`);
    await new Promise((r) => setTimeout(r, 50));
    gc();
    const after = process.memoryUsage().heapUsed;
    const grownMb = (after - before) / 1024 / 1024;
    add({
      figure: 'heap after 100 downloads, minus the heap before',
      ours: grownMb,
      unit: 'MB',
      target: `< ${MEMORY_SLACK_MB} MB`,
      verdict: grownMb < MEMORY_SLACK_MB ? 'met' : 'MISSED',
      note: `heap ${(before / 1024 / 1024).toFixed(1)} MB before, ${(after / 1024 / 1024).toFixed(1)} MB after, both after a full GC`,
    });

    // 5. The worst documents under the limits, and the longest stall of this thread while they render.
    const worst = [
      ['1 MB of line breaks (500 pages, then 422)', 'line<br>'.repeat(124_000)],
      ['1 MB of paragraphs of text', `<p>${'lorem ipsum dolor sit amet '.repeat(36_000)}</p>`.slice(0, 999_000)],
      ['100,000 nested <b>', `${'<b>'.repeat(100_000)}x${'</b>'.repeat(100_000)}`],
      ['10,000 nested tables', `${'<table><tr><td>'.repeat(10_000)}x${'</td></tr></table>'.repeat(10_000)}`],
      ['a 30,000-row table', `<table>${'<tr><td>cell</td><td>2</td></tr>'.repeat(30_000)}</table>`],
      ['a 40-column table, 200 rows', `<table>${`<tr>${'<td>abcdefgh</td>'.repeat(40)}</tr>`.repeat(200)}</table>`],
      ['a 20,000-character word ×40', `<p>${'w'.repeat(20_000)} </p>`.repeat(40)],
    ];
    let worstStall = 0;
    for (const [name, html] of worst) {
      const key = (await post('/api/contract', { action: 'create', contract: { name: 'Worst', value: html } })).contract
        .contractKey;
      for (const kind of ['pdf', 'docx']) {
        const { ms, status, stall } = await timedStall(async () => {
          const res = await fetch(`${sandbox.url}/api/download_${kind}?contractKey=${key}&clientKey=${clientKey}`, {
            headers: api,
          });
          await res.arrayBuffer();
          return res.status;
        });
        worstStall = Math.max(worstStall, stall);
        add({
          figure: `worst case ${kind.toUpperCase()}: ${name}`,
          ours: ms,
          unit: 'ms',
          target: 'reported',
          verdict: status === 200 || status === 422 ? 'reported' : 'MISSED',
          note: `answered ${status}; longest stall ${stall.toFixed(0)} ms`,
        });
      }
    }
    add({
      figure: 'longest event-loop stall while the worst documents rendered',
      ours: worstStall,
      unit: 'ms',
      target: `< ${STALL_TARGET_MS} ms`,
      verdict: worstStall < STALL_TARGET_MS ? 'met' : 'MISSED',
    });

    // 6. A compression bomb: 41 KB of object stream inflating to 40 MB, refused before any parse.
    const zeros = deflateSync(Buffer.alloc(40 * 1024 * 1024, 0x20));
    const bomb = Buffer.concat([
      Buffer.from(
        '%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n' +
          `3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >> endobj\n4 0 obj << /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${zeros.length} >>\nstream\n`,
        'latin1',
      ),
      zeros,
      Buffer.from('\nendstream\nendobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1'),
    ]);
    const bombKey = (await post('/api/contract', { action: 'create', contract: { name: 'Bomb', contractType: 'pdf' } }))
      .contract.contractKey;
    const form = new FormData();
    form.set('pdf', new Blob([bomb], { type: 'application/pdf' }), 'bomb.pdf');
    const b0 = performance.now();
    const refused = await fetch(`${sandbox.url}/api/upload_pdf?contractKey=${bombKey}&clientKey=${clientKey}`, {
      method: 'POST',
      headers: api,
      body: form,
    });
    await refused.arrayBuffer();
    add({
      figure: `upload_pdf, a ${(bomb.length / 1024).toFixed(0)} KB compression bomb (40 MB inflated): refused`,
      ours: performance.now() - b0,
      unit: 'ms',
      target: 'reported',
      verdict: refused.status === 413 ? 'reported' : 'MISSED',
      note: `answered ${refused.status}`,
    });
  } finally {
    await sandbox.close();
  }
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = await documentFigures({
    log: (r) =>
      console.log(
        `  ${r.figure}: ${r.ours.toFixed(r.ours < 10 ? 2 : 1)} ${r.unit}  ${r.verdict}${r.note ? `  (${r.note})` : ''}`,
      ),
  });
  process.exitCode = rows.some((r) => r.verdict === 'MISSED') ? 1 : 0;
}

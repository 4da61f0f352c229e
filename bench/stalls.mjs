/**
 * The longest main-thread stall (docs/benchmarks.md, docs/documents.md "Work limits"): the hostile documents under
 * the limits, each through every route that shows it (create with `returnValue`, `recipient_contract` once signed,
 * the recipient page, `download_pdf`, `download_docx`), and the longest the sandbox's event loop went without a
 * turn during each request (target < 100 ms), measured with perf_hooks.monitorEventLoopDelay and with a 10 ms
 * timer's longest late arrival. Bodies are serialised before the clock starts, so the figure is the server's.
 *
 * Runs the compiled library (dist/, `npm run build` first) in this process, so its event loop is this one's.
 * `node bench/stalls.mjs` prints the figures; bench/run.mjs calls `stallFigures()`.
 */
import { timedStall } from './harness.mjs';
import { fileURLToPath } from 'node:url';

/** The longest the sandbox's event loop may go without a turn while it answers one request. */
export const STALL_TARGET_MS = 100;

const LONG_TAG = '<placeholder1 class="placeholderClass" contenteditable="false">';

/** The hostile documents under the limits (1,000,000 characters of HTML), by name. */
export const HOSTILE = [
  ['945 KB of 15,000 unclosed placeholder tags', LONG_TAG.repeat(15_000)],
  ['40,000 short unclosed placeholder tags', '<placeholder2 class="p">'.repeat(40_000)],
  ['100,000 empty cells in one row', `<table><tr>${'<td></td>'.repeat(100_000)}</tr></table>`],
  ['100,000 nested <b>', `${'<b>'.repeat(100_000)}x${'</b>'.repeat(100_000)}`],
  ['10,000 nested tables', `${'<table><tr><td>'.repeat(10_000)}x${'</td></tr></table>'.repeat(10_000)}`],
  ['a 30,000-row table', `<table>${'<tr><td>cell</td><td>2</td></tr>'.repeat(30_000)}</table>`],
  ['1 MB of line breaks (500 pages, then 422)', 'line<br>'.repeat(124_000)],
  ['a 20,000-character word ×40', `<p>${'w'.repeat(20_000)} </p>`.repeat(40)],
];

/** The figures as rows: `{ figure, ours, unit, target, verdict, note? }`. */
export async function stallFigures({ log = () => {} } = {}) {
  const { startSandbox } = await import('../dist/index.js');
  const sandbox = await startSandbox({ clock: 'frozen', log: 'none' });
  const api = { 'x-service-key': sandbox.apiKey };
  const clientKey = sandbox.clientKey;
  const rows = [];
  const add = (row) => {
    rows.push(row);
    log(row);
  };
  const request = async (path, body) => {
    const res = await fetch(`${sandbox.url}${path}`, {
      method: body ? 'POST' : 'GET',
      headers: body ? { ...api, 'content-type': 'application/json' } : api,
      body,
    });
    const bytes = await res.arrayBuffer();
    return { status: res.status, bytes };
  };
  let worst = 0;
  let worstWhere = '';
  try {
    // The floor: the same measure around 20 creates of a one-line contract, so a busy machine shows as such.
    const small = JSON.stringify({
      data: { action: 'create', clientKey, contract: { name: 'Small', value: '<p>The parties agree.</p>' } },
    });
    let floor = 0;
    for (let i = 0; i < 20; i++)
      floor = Math.max(floor, (await timedStall(() => request('/api/contract', small))).stall);
    add({
      figure: 'main-thread stall floor: a one-line create (longest of 20)',
      ours: floor,
      unit: 'ms',
      target: 'reported',
      verdict: 'reported',
      note: "the machine's own noise, measured the same way",
    });
    for (const [name, html] of HOSTILE) {
      const body = JSON.stringify({
        data: {
          action: 'create',
          clientKey,
          contract: { name: 'Hostile', value: html },
          placeholders: [
            { name: 'first', value: 'one' },
            { name: 'second', value: 'two' },
          ],
          recipients: [{ fullname: 'Ada Lovelace', email: 'ada@example.com', action: 'sign' }],
          returnValue: true,
        },
      });
      let created;
      const steps = [
        [
          'create with returnValue',
          async () => {
            created = await request('/api/contract', body);
            return created.status;
          },
        ],
      ];
      const results = [];
      const run = async (route, work) => {
        const r = await timedStall(work);
        results.push(`${route} ${r.status} in ${r.ms.toFixed(0)} ms, stall ${r.stall.toFixed(0)} ms`);
        if (r.stall > worst) {
          worst = r.stall;
          worstWhere = `${name}: ${route}`;
        }
        return r;
      };
      for (const [route, work] of steps) await run(route, work);
      const contractKey = JSON.parse(Buffer.from(created.bytes).toString()).contract.contractKey;
      const recipientKey = (await (await fetch(`${sandbox.url}/__sandbox/contracts/${contractKey}`)).json())
        .recipients[0].recipientKey;
      await run('recipient page', async () => (await request(`/sharing/${recipientKey}`)).status);
      await sandbox.recipients.sign(recipientKey);
      await run(
        'recipient_contract, signed',
        async () => (await request(`/api/recipient_contract?shareLink=${recipientKey}`)).status,
      );
      await run('recipient page, signed', async () => (await request(`/sharing/${recipientKey}`)).status);
      for (const kind of ['pdf', 'docx']) {
        await run(
          `download_${kind}`,
          async () => (await request(`/api/download_${kind}?contractKey=${contractKey}&clientKey=${clientKey}`)).status,
        );
      }
      add({
        figure: `hostile document: ${name}`,
        ours: Math.max(...results.map((r) => Number(/stall (\d+)/.exec(r)[1]))),
        unit: 'ms',
        target: `stall < ${STALL_TARGET_MS} ms`,
        verdict: 'reported',
        note: results.join('; '),
      });
    }
    add({
      figure: 'longest main-thread stall, hostile documents through every route',
      ours: worst,
      unit: 'ms',
      target: `< ${STALL_TARGET_MS} ms`,
      verdict: worst < STALL_TARGET_MS ? 'met' : 'MISSED',
      note: `at ${worstWhere}`,
    });
  } finally {
    await sandbox.close();
  }
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = await stallFigures({
    log: (r) =>
      console.log(`  ${r.figure}: ${r.ours.toFixed(0)} ${r.unit}  ${r.verdict}${r.note ? `  (${r.note})` : ''}`),
  });
  process.exitCode = rows.some((r) => r.verdict === 'MISSED') ? 1 : 0;
}

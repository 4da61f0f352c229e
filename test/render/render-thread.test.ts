/**
 * Rendering never stalls the server (issue 24, docs/documents.md "Work limits"): the built CLI renders on a worker
 * thread, so while the worst documents under the limits render, a health probe sent every 100 ms is answered
 * before the render finishes. The figures (render times, the longest stall) are in npm run bench.
 */
import { describe, expect, it } from 'vitest';
import { cliPerFile } from '../support/cli-process.js';
import { DEMO } from '../support/helpers.js';

const WORST: [string, string][] = [
  ['1 MB of line breaks (refused at 500 pages)', 'line<br>'.repeat(124_000)],
  ['100,000 nested <b>', `${'<b>'.repeat(100_000)}x${'</b>'.repeat(100_000)}`],
  ['a 25,000-row table', `<table>${'<tr><td>cell</td><td>2</td></tr>'.repeat(25_000)}</table>`],
];

const cliOf = cliPerFile(['--quiet']);

describe('a health probe every 100 ms while the worst documents render', () => {
  it('is answered before each render finishes', async () => {
    const headers = { 'x-service-key': DEMO.apiKey, 'content-type': 'application/json' };
    const probes: { sent: number; answered?: number }[] = [];
    let rendering = true;
    const prober = (async () => {
      while (rendering) {
        const probe: { sent: number; answered?: number } = { sent: performance.now() };
        probes.push(probe);
        void fetch(`${cliOf().url}/__sandbox/health`).then(async (res) => {
          await res.arrayBuffer();
          if (res.status === 200) probe.answered = performance.now();
        });
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const renders: { name: string; started: number; finished: number; status: number }[] = [];
    for (const [name, html] of WORST) {
      const made = await fetch(`${cliOf().url}/api/contract`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          data: { action: 'create', clientKey: DEMO.clientKey, contract: { name, value: html } },
        }),
      });
      expect(made.status).toBe(201);
      const key = ((await made.json()) as { contract: { contractKey: string } }).contract.contractKey;
      for (const kind of ['pdf', 'docx']) {
        const started = performance.now();
        const res = await fetch(`${cliOf().url}/api/download_${kind}?contractKey=${key}&clientKey=${DEMO.clientKey}`, {
          headers,
        });
        await res.arrayBuffer();
        renders.push({ name: `${name} (${kind})`, started, finished: performance.now(), status: res.status });
      }
    }
    rendering = false;
    await prober;
    expect(renders.map((r) => [r.name, r.status === 200 || r.status === 422])).toEqual(
      renders.map((r) => [r.name, true]),
    );
    // Every probe sent during a render that went on for a while after it was answered before the render ended.
    let during = 0;
    for (const render of renders) {
      for (const probe of probes.filter((p) => p.sent > render.started && p.sent < render.finished - 250)) {
        during++;
        expect(probe.answered, `a probe during ${render.name}`).toBeLessThan(render.finished);
      }
    }
    expect(during, 'probes sent while documents rendered').toBeGreaterThan(3);
  }, 120_000);
});

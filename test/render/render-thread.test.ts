/**
 * Rendering never stalls the server (docs/documents.md "Work limits"): documents are drawn on a worker thread, so
 * the main thread answers while a job draws. Shown causally, whatever the machine's speed: a job held busy on the
 * thread until the test lets it end, with requests answered meanwhile. Then the built CLI draws the worst documents
 * under the limits while a health probe goes every 100 ms, and every probe is answered. The figures (render times,
 * the longest stall) are in npm run bench.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { threadRenderer } from '../../src/render/thread.js';
import { cliPerFile, healthProbes } from '../support/cli-process.js';
import { DEMO, FROZEN, testSandbox } from '../support/helpers.js';
import { scratchDir } from '../support/scratch.js';

const WORST: [string, string][] = [
  ['1 MB of line breaks (refused at 500 pages)', 'line<br>'.repeat(124_000)],
  ['100,000 nested <b>', `${'<b>'.repeat(100_000)}x${'</b>'.repeat(100_000)}`],
  ['a 25,000-row table', `<table>${'<tr><td>cell</td><td>2</td></tr>'.repeat(25_000)}</table>`],
];

const turn = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('a job drawing on the render thread', () => {
  it('leaves the main thread answering until it ends', async () => {
    const gate = join(scratchDir('held-render-'), 'gate');
    const t = await testSandbox(FROZEN, {
      port: 0,
      renderer: threadRenderer(new URL('../support/held-render-worker.mjs', import.meta.url)),
    });
    try {
      const create = (name: string) =>
        t.post(
          '/api/contract',
          { data: { action: 'create', clientKey: DEMO.clientKey, contract: { name, value: '<p>Held</p>' } } },
          { apiKey: DEMO.apiKey },
        );
      const made = await create(gate);
      expect(made.status).toBe(201);
      const key = made.body.contract.contractKey as string;
      let answered = false;
      const download = t
        .request(`/api/download_pdf?contractKey=${key}&clientKey=${DEMO.clientKey}`, {
          headers: { 'x-service-key': DEMO.apiKey },
        })
        .finally(() => {
          answered = true;
        });
      while (!existsSync(`${gate}.started`)) await turn();
      // The job is drawing (its thread is blocked until the gate opens): the API answers meanwhile.
      for (let i = 0; i < 3; i++) {
        expect((await t.control('/health')).body).toMatchObject({ status: 'ok' });
        expect((await create(`meanwhile ${i}`)).status).toBe(201);
      }
      expect(answered).toBe(false);
      writeFileSync(gate, '');
      const file = await download;
      expect(file.status).toBe(200);
      expect(String(file.body)).toBe('%PDF-held');
    } finally {
      await t.close();
    }
  });
});

const cliOf = cliPerFile(['--quiet']);

describe('the built CLI drawing the worst documents under the limits', () => {
  it('draws each (or refuses it with a 422) and answers every health probe sent meanwhile', async () => {
    const headers = { 'x-service-key': DEMO.apiKey, 'content-type': 'application/json' };
    const probes = healthProbes(cliOf().url);
    let answers: boolean[] = [];
    const renders: [string, number][] = [];
    try {
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
          const res = await fetch(
            `${cliOf().url}/api/download_${kind}?contractKey=${key}&clientKey=${DEMO.clientKey}`,
            { headers },
          );
          await res.arrayBuffer();
          renders.push([`${name} (${kind})`, res.status]);
        }
      }
    } finally {
      answers = await probes.stop();
    }
    expect(renders.filter(([, status]) => status !== 200 && status !== 422)).toEqual([]);
    expect(answers).not.toContain(false);
  }, 120_000);
});

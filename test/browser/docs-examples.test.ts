/**
 * The Playwright examples of docs/pages.md ("Driving them from a test"), run as the page writes them: each
 * TypeScript block there is read from the doc, compiled and run in order with `sandbox` and `page`, in Chromium,
 * on a contract long enough that the signature pad starts below the fold (drawing works only once it is scrolled
 * into view). So the doc cannot drift from what works.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/index.js';
import { docBlocks } from '../support/doc-blocks.js';
import { useBrowser } from './browser.js';

const browser = useBrowser();
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ clock: 'frozen', start: '2026-11-21T09:00:00Z' });
});
afterAll(() => sandbox?.close());

/** The ts blocks of docs/pages.md after its "Driving them from a test" heading. */
function drivingExamples(): string[] {
  const text = readFileSync(resolve(import.meta.dirname, '../../docs/pages.md'), 'utf8');
  const from = text.split('\n').findIndex((l) => l.startsWith('## Driving them from a test')) + 1;
  return docBlocks('docs/pages.md')
    .filter((b) => b.line > from && b.lang === 'ts')
    .map((b) => b.text);
}

describe('the Playwright examples of docs/pages.md in Chromium', () => {
  it('type a signature, then draw one on a pad below the fold, as written', async () => {
    const examples = drivingExamples();
    expect(examples.length).toBeGreaterThanOrEqual(2);
    const long = Array.from({ length: 40 }, (_, i) => `<p>Clause ${i + 1}: the tenant keeps the flat tidy.</p>`);
    const created = await fetch(`${sandbox.url}/api/contract`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-key': sandbox.apiKey! },
      body: JSON.stringify({
        data: {
          action: 'create',
          clientKey: sandbox.clientKey,
          contract: { name: 'Long lease', value: long.join('') },
          recipients: [
            { fullname: 'Grace Hopper', email: 'grace@example.com', action: 'sign', position: 1 },
            { fullname: 'Alan Turing', email: 'alan@example.com', action: 'sign', position: 2 },
          ],
        },
      }),
    });
    expect(created.status).toBe(201);
    const { contract } = (await created.json()) as { contract: { contractKey: string } };

    const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
    page.setDefaultTimeout(8_000);
    const AsyncFunction = (async () => {}).constructor as new (...args: string[]) => (...a: unknown[]) => Promise<void>;
    for (const example of examples) {
      const js = ts.transpileModule(example, { compilerOptions: { target: ts.ScriptTarget.ES2022 } }).outputText;
      await new AsyncFunction('sandbox', 'page', js)(sandbox, page);
    }

    const { recipients } = sandbox.sandbox.control.inspection.contract(contract.contractKey);
    expect(recipients.map((r) => [r.fullname, r.state])).toEqual([
      ['Grace Hopper', 'signed'],
      ['Alan Turing', 'signed'],
    ]);
    expect(recipients[0]!.signature).toBe('Grace Hopper');
    expect(recipients[1]!.signature).toMatch(/^data:image\/png;base64,/);
  });
});

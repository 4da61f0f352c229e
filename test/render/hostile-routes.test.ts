/**
 * No hostile document under the limits stalls the server (docs/documents.md "Work limits"): each
 * goes through every route that shows it (create with `returnValue`, the recipient page before and after signing,
 * `recipient_contract` once signed, `download_pdf`, `download_docx`) on the built CLI, while a health probe is sent
 * every 100 ms; every route answers right and every probe is answered, correctly. That the files never hold a probe
 * back (they are drawn on the render thread) is shown causally in render-thread.test.ts. No timing is asserted: the
 * longest stall of every route is a figure of npm run bench (bench/stalls.mjs).
 */
import { describe, expect, it } from 'vitest';
import { cliPerFile, healthProbes } from '../support/cli-process.js';
import { DEMO } from '../support/helpers.js';

const LONG_TAG = '<placeholder1 class="placeholderClass" contenteditable="false">';

/** Each document, and how its filled `contractValue` is known to be right. */
const HOSTILE: [string, string, (value: string, html: string) => void][] = [
  [
    '945 KB of 15,000 unclosed placeholder tags',
    LONG_TAG.repeat(15_000),
    (value) => expect(value.split('contenteditable="false">one</placeholder1>').length - 1).toBe(15_000),
  ],
  [
    '40,000 short unclosed placeholder tags',
    '<placeholder2 class="p">'.repeat(40_000),
    (value) => expect(value.split('<placeholder2 class="p">two</placeholder2>').length - 1).toBe(40_000),
  ],
  [
    '100,000 empty cells in one row',
    `<table><tr>${'<td></td>'.repeat(100_000)}</tr></table>`,
    (value, html) => expect(value).toBe(html),
  ],
  [
    '100,000 nested <b>',
    `${'<b>'.repeat(100_000)}x${'</b>'.repeat(100_000)}`,
    (value, html) => expect(value).toBe(html),
  ],
];

const cliOf = cliPerFile(['--quiet']);

describe('a health probe every 100 ms while hostile documents go through every route', () => {
  it('is answered, and answered right; every route answers each document right', async () => {
    const headers = { 'x-service-key': DEMO.apiKey, 'content-type': 'application/json' };
    const probes = healthProbes(cliOf().url);
    let answers: boolean[] = [];
    const send = async (url: string, body?: unknown) => {
      const res = await fetch(`${cliOf().url}${url}`, {
        method: body ? 'POST' : 'GET',
        headers,
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      return { status: res.status, text };
    };
    try {
      for (const [name, html, filledRight] of HOSTILE) {
        const created = await send('/api/contract', {
          data: {
            action: 'create',
            clientKey: DEMO.clientKey,
            contract: { name, value: html },
            placeholders: [
              { name: 'first', value: 'one' },
              { name: 'second', value: 'two' },
            ],
            recipients: [{ fullname: 'Ada Lovelace', email: 'ada@example.com', action: 'sign' }],
            returnValue: true,
          },
        });
        expect(created.status, name).toBe(201);
        const contract = JSON.parse(created.text).contract as { contractKey: string; contractValue: string };
        filledRight(contract.contractValue, html);
        const recipient = (
          (await (await fetch(`${cliOf().url}/__sandbox/contracts/${contract.contractKey}`)).json()) as {
            recipients: { recipientKey: string }[];
          }
        ).recipients[0]!.recipientKey;
        const page = await send(`/sharing/${recipient}`);
        expect(page.status, name).toBe(200);
        expect(page.text).toContain('<article class="document"');
        const signed = await fetch(`${cliOf().url}/__sandbox/recipients/${recipient}/sign`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
        expect(signed.status).toBe(200);
        const link = await send(`/api/recipient_contract?shareLink=${recipient}`);
        expect(link.status, name).toBe(200);
        filledRight(JSON.parse(link.text).contractValue, html);
        expect((await send(`/sharing/${recipient}`)).status).toBe(200);
        for (const kind of ['pdf', 'docx']) {
          const file = await send(
            `/api/download_${kind}?contractKey=${contract.contractKey}&clientKey=${DEMO.clientKey}`,
          );
          expect([200, 422], `${name}: download_${kind}`).toContain(file.status);
        }
      }
    } finally {
      answers = await probes.stop();
    }
    expect(answers).not.toContain(false);
  }, 300_000);
});

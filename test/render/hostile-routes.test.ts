/**
 * No hostile document under the limits stalls the server (issue 28 §1, §2; docs/documents.md "Work limits"): each
 * goes through every route that shows it (create with `returnValue`, the recipient page before and after signing,
 * `recipient_contract` once signed, `download_pdf`, `download_docx`) on the built CLI, while a health probe is sent
 * every 100 ms; every probe must be answered, correctly, and each probe sent during a download that went on for a
 * while after it must be answered before that download ends (the worker draws it). No timing is asserted: the
 * longest stall of every route is a figure of npm run bench (bench/stalls.mjs).
 */
import { describe, expect, it } from 'vitest';
import { cliPerFile } from '../support/cli-process.js';
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
  it('is answered, and answered right; a download never holds one back', async () => {
    const headers = { 'x-service-key': DEMO.apiKey, 'content-type': 'application/json' };
    const probes: { sent: number; answered?: number; ok?: boolean }[] = [];
    let running = true;
    const answers: Promise<void>[] = [];
    const prober = (async () => {
      while (running) {
        const probe: { sent: number; answered?: number; ok?: boolean } = { sent: performance.now() };
        probes.push(probe);
        answers.push(
          fetch(`${cliOf().url}/__sandbox/health`).then(
            async (res) => {
              const body = (await res.json()) as { status?: string };
              probe.answered = performance.now();
              probe.ok = res.status === 200 && body.status === 'ok';
            },
            () => {
              probe.ok = false;
            },
          ),
        );
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const requests: { name: string; started: number; finished: number; status: number }[] = [];
    const timed = async (name: string, url: string, body?: unknown) => {
      const started = performance.now();
      const res = await fetch(`${cliOf().url}${url}`, {
        method: body ? 'POST' : 'GET',
        headers,
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      requests.push({ name, started, finished: performance.now(), status: res.status });
      return { status: res.status, text };
    };
    try {
      for (const [name, html, filledRight] of HOSTILE) {
        const created = await timed(`${name}: create with returnValue`, '/api/contract', {
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
        const page = await timed(`${name}: recipient page`, `/sharing/${recipient}`);
        expect(page.status, name).toBe(200);
        expect(page.text).toContain('<article class="document"');
        const signed = await fetch(`${cliOf().url}/__sandbox/recipients/${recipient}/sign`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
        expect(signed.status).toBe(200);
        const link = await timed(`${name}: recipient_contract`, `/api/recipient_contract?shareLink=${recipient}`);
        expect(link.status, name).toBe(200);
        filledRight(JSON.parse(link.text).contractValue, html);
        expect((await timed(`${name}: recipient page, signed`, `/sharing/${recipient}`)).status).toBe(200);
        for (const kind of ['pdf', 'docx']) {
          const file = await timed(
            `${name}: download_${kind}`,
            `/api/download_${kind}?contractKey=${contract.contractKey}&clientKey=${DEMO.clientKey}`,
          );
          expect([200, 422], `${name}: download_${kind}`).toContain(file.status);
        }
      }
    } finally {
      running = false;
    }
    await prober;
    await Promise.all(answers);
    expect(probes.every((p) => p.ok)).toBe(true);
    // Work that runs on the render worker (the files) never holds a probe back; the rest is linear, and its
    // longest stall is a figure of npm run bench, not a test.
    let during = 0;
    for (const request of requests.filter((r) => r.name.includes('download_'))) {
      for (const probe of probes.filter((p) => p.sent > request.started && p.sent < request.finished - 250)) {
        during++;
        expect(probe.answered, `a probe during ${request.name}`).toBeLessThan(request.finished);
      }
    }
    expect(during, 'probes sent while the files were drawn').toBeGreaterThan(0);
    expect(probes.length, 'probes sent in all').toBeGreaterThan(10);
  }, 300_000);
});

/**
 * Large control API answers written a piece at a time (src/http/json-stream.ts): the bytes are JSON.stringify's,
 * and the event loop turns between pieces.
 */
import { describe, expect, it } from 'vitest';
import { jsonStream, worthStreaming } from '../../src/http/json-stream.js';
import { FROZEN, testSandbox } from '../support/helpers.js';

async function read(stream: ReadableStream<Uint8Array>): Promise<{ text: string; pieces: number }> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  return { text: Buffer.concat(chunks).toString('utf8'), pieces: chunks.length };
}

const many = <T>(make: (i: number) => T) => Array.from({ length: 150 }, (_, i) => make(i));
/** 12 KB of text: 150 of them make an answer over the 1 MB from which answers are streamed. */
const PAD = 'p'.repeat(12_000);

const VALUES: [string, Record<string, unknown>][] = [
  [
    'a list with its count',
    { requests: many((i) => ({ id: i, body: { text: `é "${i}" \u2028 ${PAD}` } })), count: 150 },
  ],
  [
    'holes, undefined and functions in and around the list',
    { a: undefined, list: many((i) => (i % 3 ? PAD : undefined)), f: () => 1, n: null },
  ],
  ['two lists and nested arrays', { first: many((i) => [i, [PAD]]), second: many(String), last: { deep: [1, 2] } }],
];

describe('answers written in pieces', () => {
  it.each(VALUES)('writes %s exactly as JSON.stringify does', async (_what, value) => {
    expect(worthStreaming(value)).toBe(true);
    expect((await read(jsonStream(value))).text).toBe(JSON.stringify(value));
  });

  it('leaves short answers to be written in one go', () => {
    expect(worthStreaming({ requests: [1, 2, 3], count: 3 })).toBe(false);
    expect(worthStreaming({ requests: many(() => 'a short item') })).toBe(false);
    expect(worthStreaming(many((i) => i))).toBe(false);
    expect(worthStreaming(null)).toBe(false);
  });

  it('lets a timer run before a large answer is written to its end', async () => {
    const big = { requests: many(() => 'x'.repeat(30_000)), count: 150 };
    let fired = false;
    setTimeout(() => {
      fired = true;
    }, 0);
    const stream = jsonStream(big);
    const { text, pieces } = await read(stream);
    expect(pieces).toBeGreaterThan(1);
    expect(fired).toBe(true);
    expect(text).toBe(JSON.stringify(big));
  });

  it('answers GET /__sandbox/requests with 150 entries of 20 KB bodies as JSON, typed application/json', async () => {
    const t = await testSandbox(FROZEN);
    const body = JSON.stringify({ data: { action: 'list', pad: 'x'.repeat(20_000) } });
    const headers = { 'content-type': 'application/json' };
    for (let i = 0; i < 150; i++) await t.request('/api/nope', { method: 'POST', headers, body });
    const res = await t.sandbox.app.request('/__sandbox/requests');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const answer = (await res.json()) as { requests: { request: { body: unknown } }[]; count: number };
    expect(answer.count).toBe(150);
    expect(answer.requests).toHaveLength(150);
    expect(answer.requests[149]?.request.body).toEqual(JSON.parse(body));
    await t.close();
  });
});

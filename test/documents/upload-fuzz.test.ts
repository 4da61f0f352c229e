/**
 * Uploads under fast-check: a real PDF with bytes flipped, cut, repeated or replaced by packed
 * streams is answered 201, 400 or 413, never 500, and a refused upload changes nothing.
 */
import { deflateSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, FROZEN, type TestSandbox, testSandbox } from '../support/helpers.js';
import { makePdf, upload } from '../support/documents-kit.js';
import { FUZZ_RUNS, FUZZ_SEED } from '../support/fuzz-kit.js';

const API = { apiKey: DEMO.apiKey } as const;
const Q = `clientKey=${DEMO.clientKey}`;

let t: TestSandbox;
let pdf: Uint8Array;
beforeAll(async () => {
  t = await testSandbox(FROZEN);
  pdf = await makePdf(2);
});
afterAll(() => t.close());

type Edit =
  | { kind: 'flip'; at: number; byte: number }
  | { kind: 'cut'; at: number }
  | { kind: 'repeat'; at: number; length: number; times: number }
  | { kind: 'packed'; at: number; inflated: number; type: 'ObjStm' | 'XRef' };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), byte: fc.nat(255) }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('repeat' as const),
    at: fc.nat(),
    length: fc.integer({ min: 1, max: 200 }),
    times: fc.integer({ min: 2, max: 50 }),
  }),
  fc.record({
    kind: fc.constant('packed' as const),
    at: fc.nat(),
    inflated: fc.constantFrom(1000, 1_000_000, 40_000_000),
    type: fc.constantFrom('ObjStm' as const, 'XRef' as const),
  }),
);

function apply(bytes: Uint8Array, edits: Edit[]): Uint8Array {
  let b = Buffer.from(bytes);
  for (const e of edits) {
    const at = e.at % Math.max(1, b.length);
    if (e.kind === 'flip') b[at] = e.byte;
    else if (e.kind === 'cut') b = b.subarray(0, at);
    else if (e.kind === 'repeat')
      b = Buffer.concat([b.subarray(0, at), ...Array(e.times).fill(b.subarray(at, at + e.length)), b.subarray(at)]);
    else {
      const data = deflateSync(Buffer.alloc(e.inflated, 0x30));
      const stream = Buffer.concat([
        Buffer.from(
          `9 0 obj << /Type /${e.type} /N 3 /First 5 /Filter /FlateDecode /Length ${data.length} >>\nstream\n`,
          'latin1',
        ),
        data,
        Buffer.from('\nendstream\nendobj\n', 'latin1'),
      ]);
      b = Buffer.concat([b.subarray(0, at), stream, b.subarray(at)]);
    }
  }
  return new Uint8Array(b);
}

describe('any mangled PDF', () => {
  it('is answered 201, 400 or 413, and a refusal changes nothing', async () => {
    const made = await t.post(
      '/api/contract',
      { data: { action: 'create', clientKey: DEMO.clientKey, contract: { name: 'Fuzzed', contractType: 'pdf' } } },
      API,
    );
    const key = made.body.contract.contractKey;
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 3 }), async (edits) => {
        const before = t.sandbox.services.store.contracts.get(key)!.document;
        const res = await upload(t, `contractKey=${key}&${Q}`, apply(pdf, edits), API);
        expect([201, 400, 413]).toContain(res.status);
        expect(typeof res.body.message).toBe('string');
        if (res.status !== 201) expect(t.sandbox.services.store.contracts.get(key)!.document).toEqual(before);
      }),
      { seed: FUZZ_SEED, numRuns: FUZZ_RUNS },
    );
  }, 120_000);
});

/**
 * Parity: every transcript in test/parity/transcripts/ (built from the service's published examples, or recorded
 * by `esign-sandbox verify --record` against the real service) is replayed against the sandbox and compared by the
 * shape rules of verify. A difference fails the suite unless accepted-differences.json lists it with its reason.
 * The real service is not reachable from CI: these recorded answers are how the suite checks the sandbox against it.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/index.js';
import type { Drift } from '../../src/verify/shape.js';
import { type Transcript, parseTranscript, replayTranscript } from '../../src/verify/transcript.js';

const HERE = import.meta.dirname;
const DIR = join(HERE, 'transcripts');
const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();
const transcripts: [string, Transcript][] = files.map((f) => [
  f.replace(/\.json$/, ''),
  parseTranscript(readFileSync(join(DIR, f), 'utf8'), f),
]);

interface Accepted extends Drift {
  exchange: string;
  reason: string;
}
const accepted: Accepted[] = JSON.parse(readFileSync(join(HERE, 'accepted-differences.json'), 'utf8')).differences;
const seen = new Set<Accepted>();

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

describe('parity: the transcripts replayed against the sandbox', () => {
  it('holds a transcript for every /api operation the published examples show, each saying where it comes from', () => {
    expect(files.length).toBeGreaterThanOrEqual(40);
    for (const [name, t] of transcripts) {
      expect(t.source, name).toMatch(/^(published examples?|recorded): /);
      if (t.source.startsWith('published'))
        for (const e of t.exchanges) expect(e.source, `${name} / ${e.name}`).toMatch(/^published example: /);
    }
  });

  it.each(transcripts)('%s answers as recorded, but for the accepted differences', async (_name, t) => {
    const replayed = await replayTranscript(t, { url: sandbox.url, apiKey: sandbox.apiKey!, secret: sandbox.secret! });
    expect(replayed).toHaveLength(t.exchanges.length);
    const unexpected: string[] = [];
    for (const { name, drifts } of replayed)
      for (const d of drifts) {
        const entry = accepted.find(
          (a) => a.exchange === name && a.path === d.path && a.sandbox === d.sandbox && a.target === d.target,
        );
        if (entry) seen.add(entry);
        else unexpected.push(`${name}: ${d.path}: sandbox ${d.sandbox} / recorded ${d.target}`);
      }
    expect(unexpected).toEqual([]);
  });

  it('lists no accepted difference that no replay shows any more, and gives each a reason', () => {
    for (const a of accepted) expect(a.reason.length, `${a.exchange} ${a.path}`).toBeGreaterThan(40);
    const stale = accepted.filter((a) => !seen.has(a)).map((a) => `${a.exchange}: ${a.path}`);
    expect(stale).toEqual([]);
  });
});

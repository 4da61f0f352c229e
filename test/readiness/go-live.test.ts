/**
 * The bundled `go-live` scenario (docs/readiness.md): loaded for each of two tenants, it gives the careful
 * integration every hard day, so its report is `ready` with no finding at all (not even an untested one), and it
 * lets every check the naive integration's defects touch fire.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NAIVE_DEFECTS, type Rehearsal, rehearse } from '../support/integrations.js';

let run: Rehearsal;

beforeAll(async () => {
  run = await rehearse((tenant) => tenant.control('POST', '/scenarios', { name: 'go-live' }));
}, 60_000);
afterAll(() => run?.close());

describe('the go-live scenario', () => {
  it('leaves a careful integration nothing to report: every hard case tried, every one handled', () => {
    expect(run.careful.findings).toEqual([]);
    expect(run.careful.verdict).toBe('ready');
  });

  it('makes the naive integration’s defects show, each by its check', () => {
    expect(run.naive.verdict).toBe('not-ready');
    expect(run.naive.findings.map((f) => f.id).sort()).toEqual(NAIVE_DEFECTS);
  });

  it('meets its expectation about deliveries with the careful integration', async () => {
    const scenario = await run.tenants.careful.control('GET', '/scenarios/go-live');
    const status = Object.fromEntries(
      scenario.expectations.map((e: { id: string; status: string }) => [e.id, e.status]),
    );
    expect(status['fully-signed-accepted']).toBe('met');
  });
});

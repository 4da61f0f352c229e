/**
 * Time is bounded (docs/scenarios.md, "Durations and times"): the clock shows the years 0000 to 9999, so a
 * duration or a time past that range is a 400 naming its key when the scenario loads, never a 500 later; and a
 * duration that is in range but lands past 9999 at run time (a deadline counted from a late event) stops at the
 * last instant the sandbox can show. Either way `GET /clock`, an advance, the scenario list, unloading and a
 * reset keep answering.
 */
import { describe, expect, it } from 'vitest';
import { sandboxEachTest } from '../support/helpers.js';

const t = sandboxEachTest();

const HUGE = '99999999999999999999d';
/** About 8,200 years: a duration the clock could span, but not from 2026. */
const PAST_9999 = '3000000d';

const load = (yaml: string) =>
  t.request('/__sandbox/scenarios', { method: 'POST', headers: { 'content-type': 'application/yaml' }, body: yaml });

/** Everything a user does next answers as usual. */
async function stillAnswering(): Promise<void> {
  const calls: [string, unknown, string?][] = [
    ['/clock', undefined],
    ['/clock/advance', { by: '1d' }],
    ['/scenarios', undefined],
    ['/scenarios', undefined, 'DELETE'],
    ['/reset', {}],
    ['/clock', undefined],
  ];
  for (const [path, body, method] of calls) {
    const answer = await t.control(path, body, method);
    expect(answer.status, `${method ?? (body ? 'POST' : 'GET')} ${path}: ${JSON.stringify(answer.body)}`).toBe(200);
  }
}

describe('a duration or a time past the years the clock can show', () => {
  it.each([
    ['a timed step far away', `timeline:\n  - { at: ${HUGE}, clearFaults: true }`, 'timeline[0].at'],
    ['a timed step in seconds', 'timeline:\n  - { at: 1e30, clearFaults: true }', 'timeline[0].at'],
    ['a timed step past 9999', `timeline:\n  - { at: ${PAST_9999}, clearFaults: true }`, 'timeline[0].at'],
    ['a deadline by', `expect:\n  - { request: { path: /api/token }, by: ${HUGE} }`, 'expect[0].by'],
    ['a deadline by past 9999', `expect:\n  - { request: { path: /api/token }, by: ${PAST_9999} }`, 'expect[0].by'],
    [
      'a deadline within',
      `expect:\n  - { request: { path: /api/token }, after: contract.sent, within: ${HUGE} }`,
      'expect[0].within',
    ],
    ['a recipient rule', `recipients:\n  - { match: {}, sign: ${HUGE} }`, 'recipients[0].sign'],
    [
      'a reaction delay',
      `timeline:\n  - { when: contract.sent, after: ${HUGE}, clearFaults: true }`,
      'timeline[0].after',
    ],
    ['an outage', `timeline:\n  - { at: 1h, webhookOutage: { for: ${HUGE} } }`, 'timeline[0].webhookOutage.for'],
    ['a fault', `faults:\n  - { match: { path: /api/* }, status: 500, for: ${HUGE} }`, 'faults[0].for'],
  ])('%s is a 400 naming the key at load, and the sandbox keeps answering', async (_name, body, key) => {
    const answer = await load(`name: far\n${body}\n`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body.message).toContain(key);
    expect(answer.body.message).toMatch(/9999|10,000 years/);
    await stillAnswering();
  });

  it('one that is in range but lands past 9999 at run time stops at the last instant, and nothing answers 500', async () => {
    const yaml = [
      'name: late',
      'recipients:',
      `  - { match: {}, sign: ${PAST_9999} }`,
      'timeline:',
      `  - { when: contract.sent, after: ${PAST_9999}, webhookOutage: { for: ${PAST_9999} } }`,
      '  - { at: 2000000d, clearFaults: true }',
      'expect:',
      `  - { request: { path: /api/token }, after: contract.sent, within: ${PAST_9999} }`,
      'data:',
      '  clients:',
      '    - clientKey: demoClient',
      '      contracts:',
      '        - { name: Late, value: <p>x</p>, send: true, recipients: [{ email: a@example.com, action: sign }] }',
    ].join('\n');
    const loaded = await load(yaml);
    expect(loaded.status, JSON.stringify(loaded.body)).toBe(201);
    const scenario = await t.control('/scenarios/late');
    expect(scenario.status, JSON.stringify(scenario.body)).toBe(200);
    const log = JSON.stringify(scenario.body.log);
    expect(log).toContain('sign at 9999-12-31T23:59:59');
    expect(log).toContain('runs at 9999-12-31T23:59:59');
    const end = await t.control('/clock/set', { to: '9999-12-31T23:59:59.999Z' });
    expect(end.status, JSON.stringify(end.body)).toBe(200);
    expect((await t.control('/scenarios/late')).body.expectations[0].evidence).toMatch(/deadline 9999-12-31T23:59:59/);
    expect((await t.control('/clock/set', { to: '2026-03-01T09:00:00Z' })).status).toBe(200);
    await stillAnswering();
  });
});

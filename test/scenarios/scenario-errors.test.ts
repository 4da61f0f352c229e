import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/options.js';
import { createSandbox } from '../../src/sandbox.js';
import { MAX_SCENARIO_TEXT } from '../../src/control-table/scenarios.js';
import { FROZEN, testSandbox } from '../support/helpers.js';
import { messageOf } from '../support/scenario-kit.js';
import { scratchDir } from '../support/scratch.js';

const INVALID: [string, string, string][] = [
  ['a YAML syntax error', 'name: x\nrecipients: [\n  - a\n', 'my.yaml:3:3: recipients[0]: YAML syntax: '],
  ['a duplicate key', 'name: x\nname: y\n', 'my.yaml:2:1: name: YAML syntax: Map keys must be unique'],
  ['an empty file', '', 'my.yaml:1:1: (top level): the file is empty; a scenario needs at least "name:"'],
  [
    'a list instead of a mapping',
    '- name: x\n',
    'my.yaml:1:1: (top level): expected a mapping (key: value lines), got a list',
  ],
  ['a missing name', 'description: nameless\n', 'my.yaml:1:1: name: required: expected a string'],
  ['a name that is not a string', 'name: 5\n', 'my.yaml:1:7: name: expected a string, got 5'],
  [
    'a name with spaces',
    'name: My Scenario\n',
    'my.yaml:1:7: name: expected lower-case letters, digits, ".", "_" and "-", starting with a letter or digit, got "My Scenario"',
  ],
  [
    'an unknown top-level key',
    'name: x\nrecipient:\n  - sign: 1m\n',
    'my.yaml:2:1: recipient: unknown key "recipient"; expected one of: name, description, tenant, seed, clock, data, recipients, timeline, faults',
  ],
  [
    'a misspelt step action',
    'name: x\ntimeline:\n  - at: 1h\n    expireToken: all\n',
    'my.yaml:4:5: timeline[0].expireToken: unknown key "expireToken"; expected one of: at, when, after, times, id, expireTokens, revokeTokens, webhookOutage, endWebhookOutage, settings, act, createContract, sendContract, addFaults, clearFaults, addReceiverFaults, clearReceiverFaults',
  ],
  [
    'an unknown key in a match',
    'name: x\nrecipients:\n  - match: { mail: "*@x.com" }\n    sign: 1m\n',
    'my.yaml:3:14: recipients[0].match.mail: unknown key "mail"; expected one of: email, name, role, position, client, contract, recipient',
  ],
  [
    'an unreadable duration',
    'name: x\nrecipients:\n  - sign: 3 days\n',
    'my.yaml:3:11: recipients[0].sign: expected a duration like "90s", "30m", "2h", "3d", "1h30m" or a number of seconds, got "3 days"',
  ],
  [
    'an unknown role',
    'name: x\nrecipients:\n  - match: { role: signer }\n    sign: 1m\n',
    'my.yaml:3:20: recipients[0].match.role: expected one of "view", "sign", "approve", "lock", or a list of them, got "signer"',
  ],
  [
    'a rule that does nothing',
    'name: x\nrecipients:\n  - match: { position: 2 }\n',
    'my.yaml:3:5: recipients[0]: expected at least one of view, sign, approve, lock, act (a duration) or never: true',
  ],
  [
    'never combined with a verb',
    'name: x\nrecipients:\n  - never: true\n    sign: 1m\n',
    'my.yaml:3:12: recipients[0].never: never: true cannot be combined with sign',
  ],
  [
    'an unknown token selector',
    'name: x\ntimeline:\n  - at: 1h\n    expireTokens: everyone\n',
    'my.yaml:4:19: timeline[0].expireTokens: expected "all", "platform" or {client: <clientKey>}, got "everyone"',
  ],
  [
    'a step without an action',
    'name: x\ntimeline:\n  - at: 1h\n',
    'my.yaml:3:5: timeline[0]: expected one action besides "at"/"when": one of expireTokens',
  ],
  [
    'a step with two actions',
    'name: x\ntimeline:\n  - at: 1h\n    expireTokens: all\n    clearFaults: true\n',
    'my.yaml:3:5: timeline[0]: expected exactly one action per step, got expireTokens and clearFaults; split them into steps with the same "at"',
  ],
  [
    'a step without a time',
    'name: x\ntimeline:\n  - expireTokens: all\n',
    'my.yaml:3:5: timeline[0]: expected "at" (a time) or "when" (a trigger)',
  ],
  [
    'a bad clock start',
    'name: x\nclock:\n  start: next tuesday\n',
    'my.yaml:3:10: clock.start: expected an ISO 8601 time like 2026-03-02T09:00:00Z, got "next tuesday"',
  ],
  [
    'a fault that does nothing',
    'name: x\nfaults:\n  - match: { path: /api/* }\n',
    'my.yaml:3:5: faults[0]: expected status (an HTTP status to answer with), latency, connection or dribble',
  ],
  [
    'a fault with a success status',
    'name: x\nfaults:\n  - status: 200\n',
    'my.yaml:3:13: faults[0].status: expected an error status (400–599)',
  ],
  [
    'a probability above 1',
    'name: x\nfaults:\n  - status: 503\n    probability: 1.5\n',
    'my.yaml:4:18: faults[0].probability: expected number to be <=1, got 1.5',
  ],
  [
    'a list where a mapping belongs',
    'name: x\nclock: [frozen]\n',
    'my.yaml:2:8: clock: expected a mapping (key: value lines), got a list',
  ],
  [
    'a bad email in seed data',
    'name: x\ndata:\n  clients:\n    - contracts:\n        - name: C\n          recipients:\n            - email: nope\n',
    'my.yaml:7:22: data.clients[0].contracts[0].recipients[0].email: ',
  ],
  [
    'more than 100 alias expansions',
    `name: x\ndescription: &a text\nz: [${Array(101).fill('*a').join(', ')}]\n`,
    'my.yaml:1:1: (top level): YAML aliases: Excessive alias count indicates a resource exhaustion attack',
  ],
];

describe('invalid scenario files', () => {
  it.each(INVALID)(
    'reports %s with the file, line:column, key path and what was expected',
    async (_what, text, expected) => {
      expect(await messageOf(text)).toContain(expected);
    },
  );

  it('lists every problem of a file, in line order', async () => {
    const message = await messageOf('name: X\nrecipients:\n  - sign: soon\ntimeline:\n  - at: 1h\n');
    expect(message.split('\n').map((l) => l.split(': ')[0])).toEqual(['my.yaml:1:7', 'my.yaml:3:11', 'my.yaml:5:5']);
  });

  it('stops the start with a ConfigError naming the file, for --scenario', async () => {
    const dir = scratchDir('bad-scenario-');
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'name: bad\nrecipients:\n  - match: { positon: 2 }\n    sign: 3d\n');
    const start = createSandbox({ ...FROZEN, scenarios: [file] });
    await expect(start).rejects.toBeInstanceOf(ConfigError);
    await expect(start).rejects.toThrow(`${file}:3:14: recipients[0].match.positon: unknown key "positon"`);
  });

  it('stops the start when a --scenario file does not exist, listing the bundled ones', async () => {
    await expect(createSandbox({ scenarios: ['no-such-scenario'] })).rejects.toThrow(
      /Scenario file not found: no-such-scenario \(bundled scenarios: approval-chain, .*happy-path/,
    );
  });

  it('answers the same messages as a 400 from the control API', async () => {
    const t = await testSandbox(FROZEN);
    const res = await t.control('/scenarios', { yaml: 'name: x\ntimeline:\n  - at: 1h\n    expireTokens: everyone\n' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'Scenario <request> is invalid:\n<request>:4:19: timeline[0].expireTokens: expected "all", "platform" or {client: <clientKey>}, got "everyone"',
    );
    expect(res.body.errors).toEqual([
      {
        path: 'timeline[0].expireTokens',
        message: 'line 4, column 19: expected "all", "platform" or {client: <clientKey>}, got "everyone"',
      },
    ]);
    await t.close();
  });
});

/** The yaml parser and seeding run on the main thread: the control API bounds both (docs/scenarios.md, limits). */
describe('scenario limits over the control API', () => {
  const rules = (count: number) => `name: many-rules\nrecipients:\n${'  - match: {}\n    view: 1m\n'.repeat(count)}`;

  it('refuses YAML over 16 KiB with a 400 naming the limit, as JSON and as a raw YAML body', async () => {
    const t = await testSandbox(FROZEN);
    const text = rules(700);
    expect(text.length).toBeGreaterThan(MAX_SCENARIO_TEXT);
    const asJson = await t.control('/scenarios', { yaml: text });
    const asYaml = await t.request('/__sandbox/scenarios', {
      method: 'POST',
      headers: { 'content-type': 'application/yaml' },
      body: text,
    });
    for (const res of [asJson, asYaml]) {
      expect(res.status).toBe(400);
      expect((res.body as { message: string }).message).toBe(
        `Scenario YAML is too long: ${text.length} characters, the limit is 16384 over the control API; load a longer file at start with --scenario (docs/scenarios.md)`,
      );
    }
    expect((await t.control('/scenarios', undefined, 'GET')).body).toMatchObject({ active: [] });
    const fits = rules(Math.floor((MAX_SCENARIO_TEXT - 40) / 27));
    expect(fits.length).toBeLessThanOrEqual(MAX_SCENARIO_TEXT);
    expect((await t.control('/scenarios', { yaml: fits })).status).toBe(201);
    await t.close();
  });

  it('refuses a scenario that generates more than 500 records while running, and takes it at start', async () => {
    const yaml = 'name: bulk\ndata:\n  clients:\n    - clientKey: bulkClient\n      generate: { contracts: 200 }\n';
    const t = await testSandbox(FROZEN);
    const res = await t.control('/scenarios', { yaml });
    expect(res.status).toBe(400);
    expect((res.body as { message: string }).message).toBe(
      'Scenario bulk: data.clients[].generate makes 600 records (contracts and their recipients); a scenario loaded while the sandbox runs may generate at most 500. Load it at start (--scenario) or seed them with --fixtures (docs/scenarios.md)',
    );
    const fits = yaml.replace('contracts: 200', 'contracts: 166');
    expect((await t.control('/scenarios', { yaml: fits })).status).toBe(201);
    await t.close();

    const dir = scratchDir('bulk-scenario-');
    const file = join(dir, 'bulk.yaml');
    writeFileSync(file, yaml);
    const atStart = await testSandbox({ ...FROZEN, scenarios: [file] });
    const contracts = Object.values(atStart.sandbox.services.store.data.contracts);
    expect(contracts.length).toBeGreaterThanOrEqual(200);
    await atStart.close();
  });
});

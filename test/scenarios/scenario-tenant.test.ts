/**
 * A scenario bound to one tenant by its `tenant:` key, wherever it is loaded from (docs/scenarios.md, "tenant"), and
 * what an unbound one does to every tenant (docs/ci.md); the log names the clock each line's time is read on.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/options.js';
import { UNBOUND_SCENARIO_WARNING, unboundScenarioWarning } from '../../src/scenarios/startup.js';
import { DEMO, FROZEN, type TestSandbox, closeAfterEach, testSandbox } from '../support/helpers.js';
import { scratchDir } from '../support/scratch.js';
import { createContract } from '../support/contract-walk.js';

const opened = closeAfterEach();

/** Everyone signs an hour after being notified; `head` goes on top (a `tenant:` key, a clock). */
const signsIn1h = (name: string, head = '') => `name: ${name}\n${head}recipients:\n  - { match: {}, sign: 1h }\n`;

/** A file for --scenario. */
function file(yaml: string): string {
  const path = join(scratchDir('scenario-tenant-'), 'scenario.yaml');
  writeFileSync(path, yaml);
  return path;
}

/** A contract sent to one signer by the tenant with this API key; its recipient's state, read later. */
async function sendOne(t: TestSandbox, apiKey: string): Promise<() => string | undefined> {
  const client = await t.post('/api/client', { data: { action: 'create', client: { fullname: 'C' } } }, { apiKey });
  const sent = await createContract(
    t,
    { apiKey },
    { name: `Lease of ${apiKey}`, value: '<p>Terms</p>' },
    [{ email: `signer@${apiKey.toLowerCase()}.example`, action: 'sign' }],
    { clientKey: client.body.client.clientKey },
  );
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  const { contractKey } = sent.body.contract;
  const { recipients } = t.sandbox.services.store;
  return () => recipients.all().find((r) => r.contractKey === contractKey)?.state;
}

async function tenant(t: TestSandbox, body: Record<string, unknown> = {}): Promise<string> {
  const made = await t.control('/platforms', { name: 'other', ...body });
  expect(made.status).toBe(201);
  return made.body.apiKey;
}

describe('a scenario given at start', () => {
  it('bound by its tenant key, drives that tenant only', async () => {
    const t = opened(
      await testSandbox({ ...FROZEN, scenarios: [file(signsIn1h('ours', `tenant: ${DEMO.apiKey}\n`))] }),
    );
    const other = await tenant(t);
    const [mine, theirs] = [await sendOne(t, DEMO.apiKey), await sendOne(t, other)];
    await t.control('/clock/advance', { by: '1h' });
    expect([mine(), theirs()]).toEqual(['signed', 'notified']);
    expect((await t.control('/scenarios/ours')).body.apiKey).toBe(DEMO.apiKey);
    const scoped = await t.control(`/platforms/${DEMO.apiKey}/scenarios`);
    expect(scoped.body.active.map((s: { name: string }) => s.name)).toEqual(['ours']);
    expect((await t.control(`/platforms/${other}/scenarios`)).body.active).toEqual([]);
  });

  it('unbound, drives the signers of every tenant (what docs/ci.md warns of)', async () => {
    const t = opened(await testSandbox({ ...FROZEN, scenarios: [file(signsIn1h('everyones'))] }));
    const other = await tenant(t);
    const [mine, theirs] = [await sendOne(t, DEMO.apiKey), await sendOne(t, other)];
    await t.control('/clock/advance', { by: '1h' });
    expect([mine(), theirs()]).toEqual(['signed', 'signed']);
  });

  it("bound, sets the tenant's own clock with its clock key, and leaves the sandbox clock alone", async () => {
    const head = `tenant: ${DEMO.apiKey}\nclock: { start: "2031-01-01T00:00:00Z", frozen: true }\n`;
    const t = opened(await testSandbox({ ...FROZEN, scenarios: [file(signsIn1h('ours', head))] }));
    expect((await t.control(`/platforms/${DEMO.apiKey}/clock`)).body).toMatchObject({
      now: '2031-01-01T00:00:00.000Z',
      own: true,
    });
    expect((await t.control('/clock')).body.now).toBe(FROZEN.start);
  });

  it('bound to a tenant no platform has: the start fails, saying how to make it', async () => {
    const start = testSandbox({ ...FROZEN, scenarios: [file(signsIn1h('lost', 'tenant: nobody\n'))] });
    await expect(start).rejects.toThrow(ConfigError);
    await expect(start).rejects.toThrow(
      /scenario lost could not be loaded: .*tenant "nobody".*POST \/__sandbox\/platforms/,
    );
  });
});

/** Fixtures with the default platform and a second one, `other`. */
function twoPlatforms(): string {
  const path = join(scratchDir('scenario-tenant-'), 'two.yaml');
  writeFileSync(
    path,
    `platforms:\n  - { name: Demo, apiKey: ${DEMO.apiKey}, secret: s1 }\n  - { name: Other, apiKey: other, secret: s2 }\n`,
  );
  return path;
}

/** The sandbox's warnings about unbound scenarios while `start` runs. */
async function warningsOf(start: () => Promise<TestSandbox>): Promise<string[]> {
  const seen: string[] = [];
  const listener = (w: Error & { code?: string }) => {
    if (w.code === UNBOUND_SCENARIO_WARNING) seen.push(w.message);
  };
  process.on('warning', listener);
  try {
    opened(await start());
    // process.emitWarning hands the warning over on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', listener);
  }
  return seen;
}

describe('the warning about a scenario that drives every tenant', () => {
  const rules = { name: 'everyones', rules: 1 };
  it.each([
    [
      'one unbound with rules, two platforms',
      [rules],
      2,
      '127.0.0.1',
      /^scenario everyones has no tenant key.*\(2 platforms exist\)/,
    ],
    ['one unbound with rules, listening on every address', [rules], 1, '0.0.0.0', /\(it listens on 0\.0\.0\.0\)/],
    ['one unbound with rules, one platform on loopback', [rules], 1, '127.0.0.1', undefined],
    ['one unbound with rules, one platform on localhost', [rules], 1, 'localhost', undefined],
    ['bound to a tenant', [{ ...rules, apiKey: 'other' }], 2, '0.0.0.0', undefined],
    ['unbound without recipient rules (faults only)', [{ name: 'flaky', rules: 0 }], 2, '0.0.0.0', undefined],
  ] as const)('%s', (_case, active, platforms, host, expected) => {
    const warning = unboundScenarioWarning(active, platforms, host);
    if (expected === undefined) expect(warning).toBeUndefined();
    else expect(warning).toMatch(expected);
  });

  it('is given once at start when tenants exist, naming the scenario; not for a bound one', async () => {
    const unbound = await warningsOf(() =>
      testSandbox({ ...FROZEN, fixtures: twoPlatforms(), scenarios: [file(signsIn1h('everyones'))] }),
    );
    expect(unbound).toHaveLength(1);
    expect(unbound[0]).toContain('scenario everyones has no tenant key');
    const bound = await warningsOf(() =>
      testSandbox({
        ...FROZEN,
        fixtures: twoPlatforms(),
        scenarios: [file(signsIn1h('ours', 'tenant: other\n'))],
      }),
    );
    expect(bound).toEqual([]);
  });
});

describe('a scenario with a tenant key loaded at run time', () => {
  it('for the whole sandbox: plays for its tenant; under another tenant: 400; for a tenant no platform has: 404', async () => {
    const t = opened(await testSandbox(FROZEN));
    const other = await tenant(t);
    const yaml = signsIn1h('theirs', `tenant: ${other}\n`);
    expect((await t.control('/scenarios', { yaml })).status).toBe(201);
    const [mine, theirs] = [await sendOne(t, DEMO.apiKey), await sendOne(t, other)];
    await t.control('/clock/advance', { by: '1h' });
    expect([mine(), theirs()]).toEqual(['notified', 'signed']);

    const elsewhere = await t.control(`/platforms/${DEMO.apiKey}/scenarios`, { yaml });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.message).toContain(`is for the tenant "${other}"`);
    const nowhere = await t.control('/scenarios', { yaml: signsIn1h('lost', 'tenant: nobody\n') });
    expect(nowhere.status).toBe(404);
  });
});

describe("the scenario's log", () => {
  it("says for each line which clock its time is on: the sandbox's, or a tenant's own", async () => {
    const t = opened(await testSandbox({ ...FROZEN, scenarios: [file(signsIn1h('everyones'))] }));
    const own = await tenant(t, { clock: 'frozen', start: '2030-05-01T00:00:00Z' });
    await sendOne(t, DEMO.apiKey);
    await sendOne(t, own);
    await t.control(`/platforms/${own}/clock/advance`, { by: '1h' });
    const log = (await t.control('/scenarios/everyones')).body.log as Array<Record<string, string>>;
    const lines = log.map((e) => `${e.at} ${e.clock}${e.tenant ? ` ${e.tenant}` : ''} ${e.outcome} ${e.what}`);
    expect(lines).toEqual([
      `2026-03-01T09:00:00.000Z sandbox scheduled signer@${DEMO.apiKey.toLowerCase()}.example (sign) on "Lease of ${DEMO.apiKey}": sign at 2026-03-01T10:00:00.000Z`,
      `2030-05-01T00:00:00.000Z tenant ${own} scheduled signer@${own.toLowerCase()}.example (sign) on "Lease of ${own}": sign at 2030-05-01T01:00:00.000Z`,
      `2030-05-01T01:00:00.000Z tenant ${own} done signer@${own.toLowerCase()}.example: sign`,
    ]);
    const page = await t.request(`/__sandbox/ui?tab=scenarios`);
    expect(page.body).toContain(`<td data-clock="tenant">tenant ${own}</td>`);
    expect(page.body).toContain('<td data-clock="sandbox">sandbox</td>');
    expect(page.body).toContain('Plays for every tenant');
  });

  it("of a tenant's scenario is on the tenant's own clock, a step included; the sandbox clock stays", async () => {
    const t = opened(await testSandbox(FROZEN));
    const own = await tenant(t, { clock: 'frozen', start: '2030-05-01T00:00:00Z' });
    const yaml = `name: theirs\ntenant: ${own}\ntimeline:\n  - { at: 1h, id: down, webhookOutage: { for: 1h } }\n`;
    expect((await t.control('/scenarios', { yaml })).status).toBe(201);
    await t.control(`/platforms/${own}/clock/advance`, { by: '1h' });
    const { body } = await t.control(`/platforms/${own}/scenarios/theirs`);
    expect(body.apiKey).toBe(own);
    expect(body.log.map((e: Record<string, string>) => [e.at, e.clock, e.tenant, e.outcome])).toEqual([
      ['2030-05-01T01:00:00.000Z', 'tenant', own, 'done'],
    ]);
    expect((await t.control('/clock')).body.now).toBe(FROZEN.start);
  });
});

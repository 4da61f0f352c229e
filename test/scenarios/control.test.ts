import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FROZEN, type TestSandbox, testSandbox } from '../support/helpers.js';
import { createContract } from '../support/contract-walk.js';

let t: TestSandbox;
afterEach(() => t?.close());

const yaml = (text: string) =>
  t.request('/__sandbox/scenarios', { method: 'POST', headers: { 'content-type': 'application/yaml' }, body: text });

describe('/__sandbox/scenarios', () => {
  it('lists the bundled scenarios with their descriptions, and none active', async () => {
    t = await testSandbox(FROZEN);
    const res = await t.control('/scenarios');
    expect(res.status).toBe(200);
    expect(res.body.active).toEqual([]);
    expect(res.body.bundled.find((b: any) => b.name === 'slow-signer').description).toMatch(/sign after 3 days/);
  });

  it('loads a bundled scenario by name and shows it as active with its log', async () => {
    t = await testSandbox(FROZEN);
    const res = await t.control('/scenarios', { name: 'happy-path' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'happy-path',
      source: 'bundled:happy-path',
      loadedAt: '2026-03-01T09:00:00.000Z',
      rules: 1,
      steps: 0,
      pendingTimers: 4,
    });
    expect(res.body.log.find((l: any) => l.cause === 'scenario:happy-path:data').what).toMatch(
      /^data: client\(s\) demoClient; contract\(s\) \w+$/,
    );
    const list = await t.control('/scenarios');
    expect(list.body.active.map((a: any) => a.name)).toEqual(['happy-path']);
  });

  it('holds a raw YAML body to the body limit, and refuses an empty one', async () => {
    t = await testSandbox({ ...FROZEN, maxBody: '1kb' });
    const big = await yaml(`name: big\ndescription: "${'x'.repeat(2000)}"\n`);
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ code: 413, message: 'Request body is larger than the limit of 1024 bytes' });
    const empty = await yaml('  \n');
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('Request body is empty; send scenario YAML');
  });

  it('loads YAML text, as JSON {"yaml"} or as a raw application/yaml body', async () => {
    t = await testSandbox(FROZEN);
    expect((await t.control('/scenarios', { yaml: 'name: one\nrecipients:\n  - sign: 1h\n' })).status).toBe(201);
    const raw = await yaml('name: two\nrecipients:\n  - never: true\n');
    expect(raw.status).toBe(201);
    expect(raw.body.source).toBe('request');
    expect((await t.control('/scenarios')).body.active.map((a: any) => a.name)).toEqual(['one', 'two']);
  });

  it('answers 404 for an unknown bundled name and 400 for a body that names nothing', async () => {
    t = await testSandbox(FROZEN);
    const missing = await t.control('/scenarios', { name: 'nope' });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toMatch(/^No bundled scenario named "nope"; bundled: approval-chain, /);
    expect((await t.control('/scenarios', { name: 'Happy Path' })).body.message).toMatch(
      /^No bundled scenario named "Happy Path"/,
    );
    const empty = await t.control('/scenarios', {});
    expect(empty.status).toBe(400);
    expect(empty.body.errors[0].message).toBe('Give exactly one of name (a bundled scenario) or yaml (scenario text)');
  });

  it('unloads a scenario: its pending actions are cancelled, what already happened stays', async () => {
    t = await testSandbox(FROZEN);
    await t.control('/scenarios', { name: 'happy-path' });
    await t.control('/clock/advance', { by: '1m' });
    const del = await t.control('/scenarios/happy-path', undefined, 'DELETE');
    expect(del.status).toBe(200);
    expect(del.body.pendingTimers).toBe(0);
    await t.control('/clock/advance', { by: '1h' });
    const contract = t.sandbox.services.store.contracts.all().find((c) => c.name === 'Happy path agreement')!;
    expect(contract.status).toBe('Seen');
    expect((await t.control('/scenarios/happy-path', undefined, 'DELETE')).status).toBe(404);
  });

  it('replaces an active scenario loaded again under the same name', async () => {
    t = await testSandbox(FROZEN);
    await t.control('/scenarios', { yaml: 'name: same\nrecipients:\n  - sign: 1h\n' });
    const again = await t.control('/scenarios', { yaml: 'name: same\nrecipients:\n  - sign: 2h\n  - never: true\n' });
    expect(again.body.notes).toEqual(['replaced the active scenario "same"']);
    expect((await t.control('/scenarios')).body.active.map((a: any) => [a.name, a.rules])).toEqual([['same', 2]]);
  });

  it('moves a frozen clock forward to clock.start at run time, but never back', async () => {
    t = await testSandbox(FROZEN);
    await t.control('/scenarios', { yaml: 'name: later\nclock: { start: "2026-03-05T08:00:00Z" }\n' });
    expect((await t.control('/clock')).body.now).toBe('2026-03-05T08:00:00.000Z');
    const earlier = await t.control('/scenarios', {
      yaml: 'name: earlier\nclock: { start: "2026-01-01T00:00:00Z" }\n',
    });
    expect(earlier.body.notes[0]).toMatch(/^clock.start 2026-01-01T00:00:00Z is behind the sandbox clock/);
    expect((await t.control('/clock')).body.now).toBe('2026-03-05T08:00:00.000Z');
  });

  it('freezes a running clock when the scenario says frozen: true', async () => {
    t = await testSandbox();
    expect((await t.control('/clock')).body.mode).toBe('real');
    await t.control('/scenarios', { yaml: 'name: still\nclock: { frozen: true }\n' });
    expect((await t.control('/clock')).body.mode).toBe('frozen');
  });

  it('drops pending scenario timers on reset; the scenario stays active and its rules keep applying', async () => {
    t = await testSandbox(FROZEN);
    await t.control('/scenarios', { name: 'token-expiry' });
    expect(t.sandbox.services.clocks.sandbox.pendingCount()).toBeGreaterThan(0);
    await t.control('/reset', {});
    const active = (await t.control('/scenarios/token-expiry')).body;
    expect(active.pendingTimers).toBe(0);
    expect(active.log.at(-1).what).toBe('sandbox reset: pending timers dropped');
    const auth = await t.demoAuth();
    await createContract(t, auth, { name: 'After reset', value: '<p/>' }, [{ email: 'r@example.com' }]);
    await t.control('/clock/advance', { by: '20m' });
    expect(t.sandbox.services.store.contracts.all().find((c) => c.name === 'After reset')!.status).toBe('Fully signed');
  });

  it('refuses scenario data whose fixed keys already exist, leaving the sandbox as it was', async () => {
    t = await testSandbox(FROZEN);
    const res = await t.control('/scenarios', {
      yaml: 'name: clash\ndata:\n  clients:\n    - clientKey: demoClient\n      templates:\n        - { templateKey: demoTemplate, name: T, value: x }\n',
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(
      'Scenario clash: templateKey "demoTemplate" already exists; pick another key or leave it out',
    );
    expect((await t.control('/scenarios')).body.active).toEqual([]);
  });

  it('loads a file from disk for library users, and says when it cannot', async () => {
    t = await testSandbox(FROZEN);
    const file = join(import.meta.dirname, '..', '..', 'scenarios', 'never-signs.yaml');
    expect((await t.sandbox.scenarios.loadFile(file)).source).toBe(`file:${file}`);
    await expect(t.sandbox.scenarios.loadFile('/nowhere/x.yaml')).rejects.toThrow(
      'Cannot read scenario file /nowhere/x.yaml: ENOENT',
    );
  });

  it('is available to library users as sandbox.scenarios', async () => {
    t = await testSandbox(FROZEN);
    const summary = await t.sandbox.scenarios.load('name: lib\nrecipients:\n  - act: 1m\n');
    expect(summary.name).toBe('lib');
    expect((await t.sandbox.scenarios.list()).active.map((a) => a.name)).toEqual(['lib']);
    expect(t.sandbox.scenarios.unload('lib').name).toBe('lib');
    expect((await t.sandbox.scenarios.list()).active).toEqual([]);
  });
});

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { parseScenario } from '../../src/scenarios/load.js';
import { scenarioJsonSchemaText } from '../../src/scenarios/schema.js';

const DIR = join(import.meta.dirname, '..', '..', 'scenarios');
const BUNDLED = readdirSync(DIR).filter((f) => f.endsWith('.yaml'));

describe('the scenario JSON Schema', () => {
  it('is checked in exactly as the zod schema generates it (run npm run schema after changing the format)', () => {
    expect(readFileSync(join(DIR, 'scenario.schema.json'), 'utf8')).toBe(scenarioJsonSchemaText());
  });

  it('rejects unknown keys, as the loader does', () => {
    const schema = JSON.parse(scenarioJsonSchemaText());
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.timeline.items.additionalProperties).toBe(false);
  });
});

describe('what an editor sees (the checked-in JSON Schema, read back as a validator)', () => {
  const editor = z.fromJSONSchema(JSON.parse(readFileSync(join(DIR, 'scenario.schema.json'), 'utf8')));

  it.each(BUNDLED)('accepts %s', (file) => {
    expect(editor.safeParse(parse(readFileSync(join(DIR, file), 'utf8'))).success).toBe(true);
  });

  it.each([
    ['a misspelt step action', { name: 'x', timeline: [{ at: '1h', expireToken: 'all' }] }],
    ['a bad duration', { name: 'x', recipients: [{ sign: '3 days' }] }],
    ['an unknown role', { name: 'x', recipients: [{ match: { role: 'signer' }, sign: '1h' }] }],
    ['a probability above 1', { name: 'x', faults: [{ status: 503, probability: 2 }] }],
    ['an unknown connection fault', { name: 'x', faults: [{ connection: 'drop' }] }],
  ])('flags %s', (_what, scenario) => {
    expect(editor.safeParse(scenario).success).toBe(false);
  });
});

describe('the bundled scenarios', () => {
  it('include the promised library', () => {
    expect(BUNDLED.map((f) => f.replace('.yaml', '')).sort()).toEqual(
      expect.arrayContaining([
        'approval-chain',
        'flaky-api',
        'happy-path',
        'never-signs',
        'sequential-signing',
        'slow-signer',
        'token-expiry',
        'webhook-outage',
      ]),
    );
  });

  it.each(BUNDLED)(
    '%s is valid, named after its file, points editors at the schema and explains itself',
    async (file) => {
      const text = readFileSync(join(DIR, file), 'utf8');
      expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=./scenario.schema.json');
      expect(text.split('\n')[1]).toMatch(/^#/);
      expect((await parseScenario(text, file)).name).toBe(file.replace('.yaml', ''));
    },
  );
});

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../src/scenarios/load.js';
import { scenarioJsonSchemaText } from '../src/scenarios/schema.js';

const DIR = join(import.meta.dirname, '..', 'scenarios');
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

describe('the bundled scenarios', () => {
  it('include the promised library', () => {
    expect(BUNDLED.map((f) => f.replace('.yaml', '')).sort()).toEqual(
      expect.arrayContaining(['approval-chain', 'flaky-api', 'happy-path', 'never-signs', 'sequential-signing', 'slow-signer', 'token-expiry', 'webhook-outage']),
    );
  });

  it.each(BUNDLED)('%s is valid, named after its file, points editors at the schema and explains itself', (file) => {
    const text = readFileSync(join(DIR, file), 'utf8');
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=./scenario.schema.json');
    expect(text.split('\n')[1]).toMatch(/^#/);
    expect(parseScenario(text, file).name).toBe(file.replace('.yaml', ''));
  });
});

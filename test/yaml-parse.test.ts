/** Fixture YAML parsing (src/store/yaml-parse.ts). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DEFAULT_FIXTURES } from '../src/config/options.js';
import { parseYaml } from '../src/fixtures/yaml-parse.js';

describe('fixture YAML parsing', () => {
  it('gives the same value as the yaml library for the bundled fixtures', async () => {
    const text = readFileSync(join(DEFAULT_FIXTURES, 'default.yaml'), 'utf8');
    expect(await parseYaml(text)).toEqual(parse(text));
  });

  it('parses any text, and hands out values that callers may change', async () => {
    const text = 'platforms:\n  - name: Mine\n    apiKey: k\n    secret: s\n';
    const first = (await parseYaml(text)) as { platforms: { name: string }[] };
    expect(first).toEqual({ platforms: [{ name: 'Mine', apiKey: 'k', secret: 's' }] });
    first.platforms[0]!.name = 'changed';
    const fixtures = readFileSync(join(DEFAULT_FIXTURES, 'default.yaml'), 'utf8');
    const a = (await parseYaml(fixtures)) as { platforms: { name: string }[] };
    a.platforms[0]!.name = 'changed';
    expect(((await parseYaml(fixtures)) as { platforms: { name: string }[] }).platforms[0]!.name).not.toBe('changed');
  });
});

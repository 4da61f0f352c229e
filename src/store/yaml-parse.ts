/**
 * YAML parsing for fixture files, with a build-time cache: `npm run build` parses the bundled fixtures once
 * and writes the results to dist/yaml-cache.json keyed by the SHA-1 of the text. A file whose text matches
 * is not parsed again, so the default start never loads the yaml library (a tenth of the start time). Any
 * other text, or an edited bundled file, is parsed as usual.
 *
 * The build also validates each bundled fixture file with the fixture schema and records the validated value
 * (`checked`), so the default start builds no fixture schema either (~15 ms of zod work: building the schema
 * and the first, cold parse). Only the CLI bundle that was built with that cache uses it: the bundle carries
 * the build's id (ESIGN_BUILD_ID, set by scripts/bundle-cli.mjs) and the cache names the build it came from,
 * so a cache from another build, or code run from the sources, validates as usual. A fixture text that differs
 * by one byte is validated as usual too.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../config.js';

export const YAML_CACHE_FILE = join(PACKAGE_ROOT, 'dist', 'yaml-cache.json');

/** dist/yaml-cache.json: parsed YAML by the text's SHA-1, and the fixture files the same build validated. */
export interface YamlCache {
  build?: string;
  parsed: Record<string, unknown>;
  checked: Record<string, unknown>;
}

// Replaced by the CLI bundler with the build's id; absent (undefined) everywhere else.
declare const ESIGN_BUILD_ID: string | undefined;
const BUILD_ID = typeof ESIGN_BUILD_ID === 'string' ? ESIGN_BUILD_ID : undefined;

let cache: YamlCache | undefined;

function cached(): YamlCache {
  if (!cache) {
    try {
      const read = JSON.parse(readFileSync(YAML_CACHE_FILE, 'utf8')) as Partial<YamlCache>;
      cache = { ...(read.build !== undefined ? { build: read.build } : {}), parsed: read.parsed ?? {}, checked: read.checked ?? {} };
    } catch {
      cache = { parsed: {}, checked: {} };
    }
  }
  return cache;
}

export function yamlKey(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

export async function parseYaml(text: string): Promise<unknown> {
  const hit = cached().parsed[yamlKey(text)];
  // A deep copy, so a caller that changes what it got cannot change the next answer.
  if (hit !== undefined) return structuredClone(hit);
  return (await import('yaml')).parse(text);
}

/** The validated fixture file for this YAML text, when the build that made this very bundle validated it. */
export function checkedFixture(text: string): unknown {
  const { build, checked } = cached();
  if (BUILD_ID === undefined || build !== BUILD_ID) return undefined;
  const hit = checked[yamlKey(text)];
  return hit === undefined ? undefined : structuredClone(hit);
}

/**
 * YAML parsing for fixture files, with a build-time cache: `npm run build` parses the bundled fixtures once
 * and writes the results to dist/yaml-cache.json keyed by the SHA-1 of the text. A file whose text matches
 * is not parsed again, so the default start never loads the yaml library (a tenth of the start time). Any
 * other text, or an edited bundled file, is parsed as usual.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../config.js';

export const YAML_CACHE_FILE = join(PACKAGE_ROOT, 'dist', 'yaml-cache.json');

let cache: Record<string, unknown> | undefined;

function cached(): Record<string, unknown> {
  if (!cache) {
    try {
      cache = JSON.parse(readFileSync(YAML_CACHE_FILE, 'utf8')) as Record<string, unknown>;
    } catch {
      cache = {};
    }
  }
  return cache;
}

export function yamlKey(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

export async function parseYaml(text: string): Promise<unknown> {
  const hit = cached()[yamlKey(text)];
  // A deep copy, so a caller that changes what it got cannot change the next answer.
  if (hit !== undefined) return structuredClone(hit);
  return (await import('yaml')).parse(text);
}

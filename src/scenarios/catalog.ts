/**
 * Where scenarios come from: the bundled folder (by name), YAML text, or a file. Reading and parsing only; the
 * engine activates what these return.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ApiError, quote } from '../core/errors.js';
import type { BundledScenario } from '../control/sandbox-control.js';
import { parseScenario } from './load.js';
import type { Scenario } from './schema.js';

export interface ReadScenario {
  scenario: Scenario;
  /** `bundled:<name>`, `file:<path>` or `request`. */
  source: string;
}

/** A bundled scenario's name (what `--scenario` and the control API accept besides YAML text and paths). */
export const NAME_ONLY = /^[a-z0-9][a-z0-9._-]*$/;

/** Bundled scenario files: name, description, path. A file that does not parse is listed as invalid. */
export async function bundledScenarios(dir: string): Promise<BundledScenario[]> {
  const out: BundledScenario[] = [];
  for (const name of bundledNames(dir)) {
    const file = bundledFile(dir, name)!;
    try {
      const s = await parseScenario(readFileSync(file, 'utf8'), file);
      out.push({ name: s.name, ...(s.description ? { description: s.description.trim() } : {}), file });
    } catch {
      out.push({ name, description: '(invalid: load it to see why)', file });
    }
  }
  return out;
}

export function bundledFile(dir: string, name: string): string | undefined {
  for (const ext of ['.yaml', '.yml']) {
    const file = join(dir, `${name}${ext}`);
    if (existsSync(file)) return file;
  }
  return undefined;
}

/** File names (without .yaml/.yml) of the bundled folder, sorted. */
export function bundledNames(dir: string): string[] {
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => /\.ya?ml$/.test(f))
        .map((f) => f.replace(/\.ya?ml$/, ''))
        .sort()
    : [];
}

/** A bundled scenario by its `name:` or its file name; 404 naming the bundled ones otherwise. */
export async function readBundled(dir: string, name: string): Promise<ReadScenario> {
  const bundled = await bundledScenarios(dir);
  const bundle = bundled.find((b) => b.name === name || basename(b.file).replace(/\.ya?ml$/, '') === name);
  if (!bundle) {
    throw ApiError.notFound(
      `No bundled scenario named ${quote(name)}; bundled: ${bundled.map((b) => b.name).join(', ') || 'none'}. To load your own, send its YAML.`,
    );
  }
  return {
    scenario: await parseScenario(readFileSync(bundle.file, 'utf8'), bundle.file),
    source: `bundled:${bundle.name}`,
  };
}

/** A bundled name, or YAML text. Throws ScenarioError (with line:column) or ApiError 404. */
export async function readNameOrYaml(dir: string, nameOrYaml: string): Promise<ReadScenario> {
  const trimmed = nameOrYaml.trim();
  return NAME_ONLY.test(trimmed)
    ? readBundled(dir, trimmed)
    : { scenario: await parseScenario(nameOrYaml, '<request>'), source: 'request' };
}

/** A scenario file on disk (library use; the control API takes names and text only, never server paths). */
export async function readScenarioFile(path: string): Promise<ReadScenario> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw ApiError.notFound(
      `Cannot read scenario file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  return { scenario: await parseScenario(text, path), source: `file:${path}` };
}

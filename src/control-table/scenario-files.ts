/**
 * Scenario files named by a test (library and control client): `load('./late.yaml')` reads the file where the test
 * runs. The control API itself never reads paths on the sandbox's machine; it takes names and YAML text.
 */
import { existsSync, readFileSync } from 'node:fs';
import { SandboxControlError } from '../control/sandbox-control.js';

/** A single-line argument ending in .yaml or .yml that names an existing file. */
export function isScenarioFile(nameOrYaml: string): boolean {
  return !nameOrYaml.includes('\n') && /\.ya?ml$/i.test(nameOrYaml.trim()) && existsSync(nameOrYaml.trim());
}

export function readScenarioText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new SandboxControlError(
      404,
      `Cannot read scenario file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

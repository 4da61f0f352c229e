/**
 * Scenarios given at start (--scenario, repeatable): read and checked before anything else, so a bad file
 * stops the start with its line:column messages; their clock settings and seed apply to the new sandbox.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, type SandboxOptions } from '../config/options.js';
import { NAME_ONLY, bundledFile, bundledNames } from './catalog.js';
import { ScenarioError, formatProblem, parseScenario } from './load.js';
import type { Scenario } from './schema.js';

export interface StartScenario {
  scenario: Scenario;
  source: string;
}

/**
 * A folder stands for its `.yaml` and `.yml` files in name order (a folder of scenarios mounted into a container,
 * docs/ci.md); an empty folder is an error, so a mount gone wrong does not start a sandbox with no scenario.
 */
function expandFolders(args: string[]): string[] {
  return args.flatMap((arg) => {
    if (!existsSync(arg) || !statSync(arg).isDirectory()) return [arg];
    const files = readdirSync(arg)
      .filter((name) => /\.ya?ml$/i.test(name))
      .sort()
      .map((name) => join(arg, name));
    if (files.length === 0) throw new ConfigError(`Scenario folder ${arg} holds no .yaml or .yml file`);
    return files;
  });
}

/** A path to a YAML file, a folder of them, or the name of a bundled scenario. */
export async function readStartScenarios(args: string[], bundledDir: string): Promise<StartScenario[]> {
  const out: StartScenario[] = [];
  for (const arg of expandFolders(args)) {
    let file = arg;
    if (!existsSync(arg)) {
      const bundled = NAME_ONLY.test(arg) ? bundledFile(bundledDir, arg) : undefined;
      if (!bundled)
        throw new ConfigError(
          `Scenario file not found: ${arg} (bundled scenarios: ${bundledNames(bundledDir).join(', ') || 'none'})`,
        );
      file = bundled;
    }
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new ConfigError(`Cannot read scenario ${file}: ${(error as Error).message}`);
    }
    try {
      out.push({ scenario: await parseScenario(text, arg), source: file === arg ? `file:${arg}` : `bundled:${arg}` });
    } catch (error) {
      if (error instanceof ScenarioError)
        throw new ConfigError(`invalid scenario ${arg}:\n${error.problems.map(formatProblem).join('\n')}`);
      throw error;
    }
  }
  return out;
}

/**
 * The clock and seed of a sandbox started with scenarios: flags (and library options) win; otherwise the last
 * scenario that sets `clock.frozen` / `clock.start` / `seed` decides.
 */
export function startSettings(
  options: SandboxOptions,
  scenarios: StartScenario[],
): { clock?: 'real' | 'frozen'; start?: string; seed?: number } {
  const out: { clock?: 'real' | 'frozen'; start?: string; seed?: number } = {};
  // A scenario bound to a tenant sets that tenant's clock when it loads (engine.ts activate), not the sandbox's.
  for (const { scenario } of scenarios.filter((s) => s.scenario.tenant === undefined)) {
    if (scenario.clock?.frozen !== undefined) out.clock = scenario.clock.frozen ? 'frozen' : 'real';
    if (scenario.clock?.start !== undefined) out.start = scenario.clock.start;
    if (scenario.seed !== undefined) out.seed = scenario.seed;
  }
  if (options.clock !== undefined) delete out.clock;
  if (options.start !== undefined) delete out.start;
  if (options.seed !== undefined) delete out.seed;
  return out;
}

/** The warning's code, for `process.on('warning')` and `node --disable-warning=` (docs/ci.md). */
export const UNBOUND_SCENARIO_WARNING = 'ESIGN_SANDBOX_UNBOUND_SCENARIO';

/**
 * The one warning a start gives about scenarios without a `tenant:` key whose rules drive signers: they drive the
 * signers of every tenant (docs/ci.md, "Scenarios and tenants"). Given only when tenants exist (more than one
 * platform at start) or are expected (the sandbox listens beyond loopback, as in a container or a CI service, where
 * each test makes its own tenant); a sandbox on a laptop with one platform says it in its banner alone.
 */
export function unboundScenarioWarning(
  active: ReadonlyArray<{ name: string; apiKey?: string; rules: number }>,
  platforms: number,
  host: string,
): string | undefined {
  const unbound = active.filter((a) => a.apiKey === undefined && a.rules > 0).map((a) => a.name);
  if (unbound.length === 0) return undefined;
  const why = platforms > 1 ? `${platforms} platforms exist` : isLoopback(host) ? undefined : `it listens on ${host}`;
  if (why === undefined) return undefined;
  const [these, have, their, it] =
    unbound.length === 1 ? ['scenario', 'has', 'its', 'it'] : ['scenarios', 'have', 'their', 'each'];
  return `${these} ${unbound.join(', ')} ${have} no tenant key, so ${their} recipient rules drive the signers of every tenant (${why}): give ${it} "tenant: <apiKey>" to play for one tenant, or load ${it} per tenant under /__sandbox/platforms/{apiKey}/scenarios (docs/ci.md)`;
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}

/** Gives the warning above, once, as a Node warning with its code (the CLI prints it on stderr). */
export function warnOfUnboundScenarios(...args: Parameters<typeof unboundScenarioWarning>): void {
  const warning = unboundScenarioWarning(...args);
  if (warning) process.emitWarning(warning, { code: UNBOUND_SCENARIO_WARNING });
}

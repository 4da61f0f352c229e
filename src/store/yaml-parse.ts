/** YAML parsing for fixture files: the yaml library is imported on the first YAML file. */
export async function parseYaml(text: string): Promise<unknown> {
  return (await import('yaml')).parse(text);
}

/**
 * Always `undefined`: a build-time cache of validated fixture files used to answer here, and was removed (it saved
 * less than 10 % of the start; docs/benchmarks.md, "Simplification"). src/store/fixtures.ts still asks; the call
 * and this function can go together.
 */
export function checkedFixture(_text: string): unknown {
  return undefined;
}

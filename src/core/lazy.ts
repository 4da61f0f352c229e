/**
 * A value built on first use and kept: `const schema = lazy(() => z.object(…))`, read as `schema()`. Only the schemas
 * something parses with are wrapped (an action's or endpoint's schema and response, in `defineAction` and
 * `defineEndpoint`; each module's entry schema: records, snapshots, fixtures, scenarios, faults, control bodies); the
 * pieces inside them are plain functions, built once with the schema that uses them. So a start builds no schema.
 * A performance device that earns its place on the start figure (start → first healthy answer, CPU time, median of
 * 15, `node bench/start-cpu.mjs 15`, docs/benchmarks.md "Performance devices"): 1.19× bare Hono with it, 1.61× with
 * `lazy` made eager (target ≤ 1.3×). What it holds is a constant of the code (the same for every sandbox), not
 * sandbox state.
 */
export function lazy<T>(build: () => T): () => T {
  let value: T;
  let built = false;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value;
  };
}

/**
 * A value built on first use and kept: `const schema = lazy(() => z.object(…))`, read as `schema()`. The zod
 * schemas are built this way so that a start builds none of them; each is built by the first request, fixture or
 * scenario that needs it. A performance device that earns its place: with every schema built at import, the CLI
 * started at 1.42× bare Hono; built on first use, 1.10× (target ≤ 1.3×; docs/benchmarks.md, "Simplification").
 * What it holds is a constant of the code (the same for every sandbox), not sandbox state.
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

/**
 * A value built on first use and kept: `const schema = lazy(() => z.object(…))`, read as `schema()`. The zod
 * schemas are built this way so that a start builds none of them (about 400 zod calls, a tenth of the start
 * time with the garbage they leave); each is built by the first request, fixture or scenario that needs it.
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

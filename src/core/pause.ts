/**
 * A turn of the event loop given back in the middle of long work, so requests, timers and webhook deliveries keep
 * being served meanwhile: a large document rendering (docs/documents.md, work limits), a long answer written, the
 * journal prepared for its list, the OpenAPI document built, a data file read.
 */
export function pause(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A turn of the event loop given back in the middle of long work, so requests, timers and webhook deliveries keep
 * being served while a large document renders (docs/documents.md, work limits).
 */
export function pause(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

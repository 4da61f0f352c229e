/**
 * The renderer's worker thread (thread.ts starts it): runs each job it is sent with the in-process renderer and
 * answers its bytes, or the refusal it raised as plain data (status, message, errors), so the main thread stays
 * free to answer requests while a large document renders (docs/documents.md, work limits).
 */
import { parentPort } from 'node:worker_threads';
import { ApiError } from '../core/errors.js';
import { inProcessRenderer } from './renderer.js';
import type { WorkerAnswer, WorkerRequest } from './thread.js';

if (parentPort) {
  const port = parentPort;
  const renderer = inProcessRenderer();
  port.on('message', async ({ id, method, arg }: WorkerRequest) => {
    try {
      const value = await (renderer[method] as (a: unknown) => Promise<unknown>)(arg);
      // A file is handed over, not copied.
      const transfer = value instanceof Uint8Array ? [value.buffer as ArrayBuffer] : [];
      port.postMessage({ id, ok: true, value } satisfies WorkerAnswer, transfer);
    } catch (error) {
      const answer: WorkerAnswer =
        error instanceof ApiError
          ? {
              id,
              ok: false,
              status: error.status,
              message: error.message,
              errors: error.errors,
              headers: error.headers,
            }
          : { id, ok: false, message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
      port.postMessage(answer);
    }
  });
}

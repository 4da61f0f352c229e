/**
 * The render queue (docs/documents.md, work limits): jobs run `concurrency` at a time, in the order they came; at
 * most `waiting` more wait their turn, and a job past that is refused with a 503 and `Retry-After`, so a burst of
 * downloads holds at most so many jobs in memory and the first answer comes after about one render.
 */
import { ApiError } from '../core/errors.js';
import type { Renderer } from './jobs.js';

export interface QueueBounds {
  /** Jobs that run at once. */
  concurrency: number;
  /** Jobs that may wait for a turn; one more is refused (503). */
  waiting: number;
}

/** One job at a time, as documents have always been drawn; 32 waiting (20 uploads at once all get their turn). */
export const RENDER_QUEUE: QueueBounds = { concurrency: 1, waiting: 32 };

/** `renderer` with every job going through one queue of these bounds. */
export function queuedRenderer<R extends Renderer>(renderer: R, bounds: QueueBounds = RENDER_QUEUE): R {
  let running = 0;
  const queue: (() => void)[] = [];
  // A job that ends hands its slot to the first job waiting, or frees it.
  const release = () => {
    const waiter = queue.shift();
    if (waiter) waiter();
    else running--;
  };
  const run = async <T>(job: () => Promise<T>): Promise<T> => {
    if (running >= bounds.concurrency) {
      if (queue.length >= bounds.waiting) {
        // Each job ahead takes about a second for the largest documents (docs/benchmarks.md).
        const seconds = Math.max(1, Math.ceil((queue.length + running) / bounds.concurrency));
        throw new ApiError(
          503,
          `The document renderer is busy: ${running} job(s) running and ${queue.length} waiting, the limit; try again in ${seconds} s`,
          undefined,
          { 'Retry-After': String(seconds) },
        );
      }
      await new Promise<void>((resolve) => queue.push(resolve));
    } else running++;
    try {
      return await job();
    } finally {
      release();
    }
  };
  return {
    ...renderer,
    inspectPdf: (bytes) => run(() => renderer.inspectPdf(bytes)),
    pdf: (job) => run(() => renderer.pdf(job)),
    docx: (job) => run(() => renderer.docx(job)),
    sanitise: (html) => run(() => renderer.sanitise(html)),
  };
}

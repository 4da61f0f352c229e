/**
 * A renderer that runs its jobs on a worker thread (worker.ts), as the queue (queue.ts) hands them over, so a large document never
 * blocks the event loop that answers the API, moves the clock and delivers webhooks (docs/documents.md). The
 * thread starts with the first job and does not keep the process alive; `close()` ends it.
 */
import { Worker } from 'node:worker_threads';
import { ApiError, type FieldError } from '../core/errors.js';
import type { DocxJob, PdfInfo, PdfJob, Renderer } from './jobs.js';

export interface WorkerRequest {
  id: number;
  method: 'inspectPdf' | 'pdf' | 'docx' | 'sanitise';
  arg: unknown;
}

export type WorkerAnswer =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; status?: number; message: string; errors?: unknown; headers?: unknown };

export function threadRenderer(workerFile: URL): Renderer & { close(): Promise<void> } {
  let worker: Worker | undefined;
  let nextId = 0;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>();
  const failAll = (error: Error) => {
    for (const p of pending.values()) p.reject(error);
    pending.clear();
    worker = undefined;
  };
  const start = (): Worker => {
    const w = new Worker(workerFile);
    w.unref();
    w.on('message', (answer: WorkerAnswer) => {
      const p = pending.get(answer.id);
      if (!p) return;
      pending.delete(answer.id);
      if (answer.ok) p.resolve(answer.value);
      else if (answer.status)
        p.reject(
          new ApiError(
            answer.status as ApiError['status'],
            answer.message,
            answer.errors as FieldError[] | undefined,
            answer.headers as Record<string, string> | undefined,
          ),
        );
      else p.reject(new Error(`the renderer failed: ${answer.message}`));
    });
    w.on('error', (error) => failAll(error instanceof Error ? error : new Error(String(error))));
    w.on('exit', (code) => failAll(new Error(`the renderer's thread stopped (exit code ${code})`)));
    return w;
  };
  const call = <T>(method: WorkerRequest['method'], arg: unknown): Promise<T> => {
    worker ??= start();
    const id = nextId++;
    const answer = new Promise<T>((resolve, reject) =>
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject }),
    );
    worker.postMessage({ id, method, arg } satisfies WorkerRequest);
    return answer;
  };
  return {
    inspectPdf: (bytes) => call<PdfInfo>('inspectPdf', bytes),
    pdf: (job: PdfJob) => call<Uint8Array>('pdf', job),
    docx: (job: DocxJob) => call<Uint8Array>('docx', job),
    sanitise: (html: string) => call<string>('sanitise', html),
    close: async () => {
      const w = worker;
      worker = undefined;
      if (w) await w.terminate();
    },
  };
}

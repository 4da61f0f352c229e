/**
 * The request log on stdout: one line per answered request, heard from the journal (`onEntry`) (so it is redacted the same way). `pretty` is for people at a terminal, `json` is one JSON object per
 * line for log collectors, `none` prints nothing.
 */
import type { LogFormat } from '../config/options.js';
import type { JournalEntry } from '../journal/journal.js';

export interface RequestLogOptions {
  format: LogFormat;
  write: (line: string) => void;
  /** ANSI colours on the status (pretty only); on when writing to a terminal. */
  color?: boolean;
}

export function requestLogger(options: RequestLogOptions): ((entry: JournalEntry) => void) | undefined {
  if (options.format === 'none') return undefined;
  if (options.format === 'json') {
    return (entry) =>
      options.write(
        JSON.stringify({
          at: entry.at,
          method: entry.method,
          path: entry.path,
          ...(entry.action !== undefined ? { action: entry.action } : {}),
          status: entry.status,
          durationMs: entry.durationMs,
          id: entry.id,
          ...(entry.status >= 400 ? { message: messageOf(entry) } : {}),
        }),
      );
  }
  return (entry) => options.write(prettyLine(entry, options.color ?? false));
}

/** `09:00:00.000  POST /api/contract create  201  3.1 ms`, with the error message on 4xx/5xx. */
export function prettyLine(entry: JournalEntry, color: boolean): string {
  const time = entry.at.slice(11, 23);
  const status = color ? paint(entry.status) : String(entry.status);
  const op = entry.action !== undefined ? ` ${entry.action}` : '';
  const message = entry.status >= 400 ? `  ${messageOf(entry) ?? ''}` : '';
  return `${time}  ${entry.method.padEnd(6)} ${entry.path}${op}  ${status}  ${entry.durationMs.toFixed(1)} ms${message}`.trimEnd();
}

function messageOf(entry: JournalEntry): string | undefined {
  const body = entry.response.body;
  if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string') return body.message;
  return undefined;
}

function paint(status: number): string {
  const code = status >= 500 ? 31 : status >= 400 ? 33 : status >= 300 ? 36 : 32;
  return `\u001b[${code}m${status}\u001b[0m`;
}

/**
 * Lines to a stream, gathered and written once per turn of the event loop: under load one write per request
 * costs the sandbox about a seventh of its throughput (measured with `npm run bench`), one write per turn almost
 * nothing. `flush()` writes what is pending at once (on close).
 */
export function lineWriter(stream: NodeJS.WritableStream): { write: (line: string) => void; flush: () => void } {
  let pending: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const text = `${pending.join('\n')}\n`;
    pending = [];
    stream.write(text);
  };
  return {
    write(line) {
      pending.push(line);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}

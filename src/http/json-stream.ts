/**
 * Large control API answers as JSON written a piece at a time (docs/errors.md, "Limits"). `GET /__sandbox/requests`
 * with a full journal (1,000 requests with 60 KB bodies) is a 60 MB answer: one JSON.stringify of it stopped the
 * event loop ~300 ms, every other request waiting. Written element by element, with a turn of the event loop
 * between pieces of ~1 MB, no piece takes more than a few milliseconds. The bytes are those JSON.stringify writes.
 */
import { pause } from '../core/pause.js';

/** Answers with a top-level array shorter than this are written in one go, as before. */
const STREAM_FROM = 100;
/**
 * Nor are answers estimated under this size (~10 ms to write in one go). The request journal keeps what `c.json`
 * wrote, up to 64 KiB; a longer answer is kept as its size only, and a streamed one not at all.
 */
const STREAM_FROM_CHARS = 1024 * 1024;
/** About how many characters are written between two turns of the event loop. */
const PIECE = 1024 * 1024;

/**
 * Whether `value` is an object with a top-level array long enough to be worth writing in pieces: 100 items or more,
 * and over ~1 MB by the size of its first three items.
 */
export function worthStreaming(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  return Object.values(value).some((v) => {
    if (!Array.isArray(v) || v.length < STREAM_FROM) return false;
    const sample = v.slice(0, 3).reduce((sum: number, item) => sum + (JSON.stringify(item)?.length ?? 4), 0);
    return (sample / 3) * v.length > STREAM_FROM_CHARS;
  });
}

/** `JSON.stringify(value)` as a stream of UTF-8 pieces, each top-level array written one element at a time. */
export function jsonStream(value: Record<string, unknown>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const pieces = jsonPieces(value);
  let first = true;
  return new ReadableStream({
    async pull(controller) {
      // A turn of the event loop between pieces (pull alone runs on microtasks, which timers and sockets wait behind).
      if (!first) await pause();
      first = false;
      let text = '';
      for (;;) {
        const next = pieces.next();
        if (next.done) {
          if (text) controller.enqueue(encoder.encode(text));
          controller.close();
          return;
        }
        text += next.value;
        if (text.length >= PIECE) break;
      }
      controller.enqueue(encoder.encode(text));
    },
  });
}

function* jsonPieces(value: Record<string, unknown>): Generator<string> {
  yield '{';
  let comma = false;
  for (const [key, v] of Object.entries(value)) {
    const name = `${comma ? ',' : ''}${JSON.stringify(key)}:`;
    if (Array.isArray(v)) {
      yield `${name}[`;
      for (let i = 0; i < v.length; i++)
        yield `${i > 0 ? ',' : ''}${(JSON.stringify(v[i]) as string | undefined) ?? 'null'}`;
      yield ']';
    } else {
      const member = JSON.stringify(v) as string | undefined;
      // Like JSON.stringify: members whose value has no JSON form (undefined, functions) are left out.
      if (member === undefined) continue;
      yield `${name}${member}`;
    }
    comma = true;
  }
  yield '}';
}

/**
 * A minimal HTTP/1.1 keep-alive client for the bench's short runs and large answers, where a general-purpose
 * load generator measures itself:
 * - autocannon's HTTP parser runs in JavaScript and cost ~20 ms of client time per 16 MB answer (a list of
 *   100,000 contracts took a median 34 ms through it, 13 ms through curl);
 * - each autocannon run has a start cost a short slice pays every time: two identical sandboxes taking turns in
 *   slices of 500 created at 6,100–13,300/s through autocannon and 14,500–18,900/s through this client, about
 *   20 ms more per slice.
 * Here a request's bytes are built once and written again for every repeat, every read lands in one reused
 * buffer, and only the answer's head is parsed (status and Content-Length); the body is counted, not kept.
 * Both servers the bench compares send Content-Length, so chunked answers are refused rather than handled.
 */
import { connect } from 'node:net';
import { performance } from 'node:perf_hooks';

/** The bytes of one POST request. */
export function postRequest(url, headers, body) {
  const { host, pathname } = new URL(url);
  const bytes = Buffer.from(body);
  const head = Object.entries({ ...headers, host, 'content-length': bytes.length })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return Buffer.concat([Buffer.from(`POST ${pathname} HTTP/1.1\r\n${head}\r\n`), bytes]);
}

/**
 * One connection to `url`'s host. `send()` writes `request`; `onAnswer(ms)` is called when the answer's last
 * byte has arrived, with the time since that write. Resolves once connected.
 */
function connection(url, request, { onAnswer, onError, readBuffer = 64 * 1024, timeoutMs = 30_000 }) {
  const { hostname, port } = new URL(url);
  let started = 0;
  let head = ''; // the answer's head while it is incomplete
  let left = -1; // body bytes still to come; -1 while the head is being read
  const fail = (error) => {
    socket.destroy();
    onError(error);
  };
  const socket = connect({
    host: hostname,
    port: Number(port),
    onread: {
      buffer: Buffer.allocUnsafe(readBuffer),
      callback: (n, buf) => {
        let from = 0;
        if (left < 0) {
          head += buf.latin1Slice(0, n);
          const end = head.indexOf('\r\n\r\n');
          if (end < 0) return;
          if (!/^HTTP\/1\.1 2\d\d/.test(head)) return fail(new Error(`${url} answered ${head.slice(0, 60)}`));
          const length = /\r\ncontent-length: *(\d+)/i.exec(head.slice(0, end));
          if (!length) return fail(new Error(`${url} answered without Content-Length`));
          from = n - (head.length - end - 4);
          left = Number(length[1]);
        }
        left -= n - from;
        if (left < 0) return fail(new Error(`${url} answered more than its Content-Length`));
        if (left === 0) {
          left = -1;
          head = '';
          onAnswer(performance.now() - started);
        }
      },
    },
  });
  socket.once('error', onError);
  socket.setTimeout(timeoutMs, () => fail(new Error(`no answer from ${url} within ${timeoutMs / 1000} s`)));
  return new Promise((resolve) => {
    socket.once('connect', () =>
      resolve({
        send() {
          started = performance.now();
          socket.write(request);
        },
        end: () => socket.end(),
      }),
    );
  });
}

/**
 * `amount` requests over `connections` connections, each sending its next request as soon as its answer is
 * complete (what autocannon does with a fixed amount). Resolves with the seconds from the first write to the
 * last answer; connecting is not counted.
 */
export async function repeat(url, request, amount, connections = 10) {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = 0;
    let t0 = 0;
    const open = [];
    const next = (c) => {
      if (sent === amount) return;
      sent++;
      c.send();
    };
    const opened = Array.from({ length: Math.min(connections, amount) }, () => {
      let self;
      const ready = connection(url, request, {
        onError: reject,
        onAnswer: () => {
          if (++answered === amount) {
            const seconds = (performance.now() - t0) / 1000;
            for (const c of open) c.end();
            resolve({ seconds, answered });
          } else next(self);
        },
      });
      return ready.then((c) => (self = c));
    });
    Promise.all(opened).then((cs) => {
      open.push(...cs);
      t0 = performance.now();
      for (const c of cs) next(c);
    }, reject);
  });
}

/** `count` requests one after the other on one connection; resolves with each one's time to its last byte (ms), sorted. */
export async function timeEach(url, request, count, readBuffer = 1 << 20) {
  return new Promise((resolve, reject) => {
    const times = [];
    let c;
    connection(url, request, {
      readBuffer,
      onError: reject,
      onAnswer: (ms) => {
        times.push(ms);
        if (times.length < count) return c.send();
        c.end();
        resolve(times.sort((a, b) => a - b));
      },
    }).then((opened) => {
      c = opened;
      c.send();
    }, reject);
  });
}

/**
 * One keep-alive connection for requests whose answers the caller reads (a key to use in the next request): one
 * request at a time, `exchange(method, path, body)` resolves with `{ status, text }`. Used where the time of a single
 * request is the figure (bench/tenants.mjs), so no client library's own work is measured with it.
 */
export async function exchanger(url) {
  const { hostname, port, host } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port), noDelay: true });
  await new Promise((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let buffered = Buffer.alloc(0);
  let waiting;
  socket.on('data', (chunk) => {
    buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
    const end = buffered.indexOf('\r\n\r\n');
    if (end < 0 || !waiting) return;
    const head = buffered.latin1Slice(0, end);
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    if (buffered.length < end + 4 + length) return;
    const text = buffered.toString('utf8', end + 4, end + 4 + length);
    buffered = buffered.subarray(end + 4 + length);
    const done = waiting;
    waiting = undefined;
    done.resolve({ status: Number(head.slice(9, 12)), text });
  });
  socket.on('error', (error) => waiting?.reject(error));
  return {
    exchange(method, path, body = '') {
      const bytes = Buffer.from(body);
      const head = `${method} ${path} HTTP/1.1\r\nhost: ${host}\r\ncontent-type: application/json\r\ncontent-length: ${bytes.length}\r\n\r\n`;
      return new Promise((resolve, reject) => {
        waiting = { resolve, reject };
        socket.write(Buffer.concat([Buffer.from(head), bytes]));
      });
    },
    end: () => socket.end(),
  };
}

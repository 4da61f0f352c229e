/**
 * Every client reads a refusal (docs/errors.md, "Every client reads a refusal"): a body over a limit, or sent to a
 * route that answers without reading it, is read to its end and dropped before the answer leaves, so Node's fetch,
 * Python's urllib and http.client, curl and a raw socket each read the status and its JSON message instead of
 * EPIPE or "Broken pipe"; then the next request on the same connection is answered. Against the built CLI: a
 * client in the sandbox's own process would not meet what a client over the network meets.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliPerFile } from '../support/cli-process.js';
import { countingProxy } from '../support/counting-proxy.js';
import { DEMO } from '../support/helpers.js';
import { PYTHON } from '../support/python.js';
import { RawConnection } from '../support/raw-socket.js';
import { scratchDir } from '../support/scratch.js';

const run = promisify(execFile);
const cliOf = cliPerFile(['--quiet']);
const MB = 1_000_000;
const BOUNDARY = 'refusal-boundary';
const LIST = JSON.stringify({ data: { action: 'list', clientKey: DEMO.clientKey } });
const JSON_TYPE = 'application/json';

interface Refusal {
  name: string;
  path: () => string;
  body: () => Buffer;
  type: string;
  chunked?: boolean;
  status: number;
  message: RegExp;
}

const upload = (size: number) =>
  Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="pdf"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    Buffer.alloc(size, 0x41),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
const bigJson = (size: number) =>
  Buffer.from(JSON.stringify({ data: { action: 'create', contract: { name: 'big', value: 'x'.repeat(size) } } }));

let contractKey = '';
const REFUSALS: Refusal[] = [
  {
    name: 'a 16 MB file to upload_pdf (limit 15 MB)',
    path: () => `/api/upload_pdf?contractKey=${contractKey}&clientKey=${DEMO.clientKey}`,
    body: () => upload(16 * MB),
    type: `multipart/form-data; boundary=${BOUNDARY}`,
    status: 413,
    message: /larger than the upload limit of 15728640 bytes/,
  },
  {
    name: 'an 11 MB JSON body (limit 10 MB)',
    path: () => `/api/contract?clientKey=${DEMO.clientKey}`,
    body: () => bigJson(11 * MB),
    type: JSON_TYPE,
    status: 413,
    message: /larger than the limit of 10485760 bytes/,
  },
  {
    name: 'an 11 MB JSON body, chunked',
    path: () => `/api/contract?clientKey=${DEMO.clientKey}`,
    body: () => bigJson(11 * MB),
    type: JSON_TYPE,
    chunked: true,
    status: 413,
    message: /larger than the limit of 10485760 bytes/,
  },
  {
    name: 'an 11 MB body to a path nothing answers',
    path: () => '/api/no_such_thing',
    body: () => bigJson(11 * MB),
    type: JSON_TYPE,
    status: 404,
    message: /No such path/,
  },
];

/** What a client met: the refusal's status and body, then the next request's status and whether it reused the connection. */
interface Met {
  status: number;
  body: string;
  next: number;
  sameConnection: boolean;
}

const files = new Map<string, string>();
const headers = (type: string) => ({ 'x-service-key': DEMO.apiKey, 'content-type': type });

const CLIENTS: [string, (r: Refusal) => Promise<Met>][] = [
  [
    "Node's fetch",
    async (r) => {
      const proxy = await countingProxy(Number(new URL(cliOf().url).port));
      try {
        const bytes = r.body();
        const body = r.chunked
          ? new ReadableStream({
              start(controller) {
                for (let i = 0; i < bytes.length; i += 65_536) controller.enqueue(bytes.subarray(i, i + 65_536));
                controller.close();
              },
            })
          : bytes;
        const res = await fetch(`${proxy.url}${r.path()}`, {
          method: 'POST',
          headers: headers(r.type),
          body,
          ...(r.chunked ? { duplex: 'half' } : {}),
        } as RequestInit);
        const text = await res.text();
        // fetch hands a connection back to its pool a turn after its answer was read.
        await new Promise((resolve) => setImmediate(resolve));
        const next = await fetch(`${proxy.url}/api/contract`, {
          method: 'POST',
          headers: headers(JSON_TYPE),
          body: LIST,
        });
        await next.arrayBuffer();
        return {
          status: res.status,
          body: text,
          next: next.status,
          sameConnection: proxy.connections() === 1 && proxy.closedByServer() === 0,
        };
      } finally {
        await proxy.close();
      }
    },
  ],
  [
    "Python's urllib (then http.client, on one connection)",
    async (r) => {
      const { stdout } = await run(PYTHON, [
        '-c',
        PYTHON_CLIENT,
        cliOf().url,
        r.path(),
        files.get(r.name)!,
        r.type,
        r.chunked ? '1' : '0',
        DEMO.apiKey,
        LIST,
      ]);
      return JSON.parse(stdout) as Met;
    },
  ],
  [
    'curl',
    async (r) => {
      const out = join(scratchDir('refusal-curl-'), 'answer');
      const common = ['-s', '-X', 'POST', '-H', `x-service-key: ${DEMO.apiKey}`];
      const { stdout } = await run('curl', [
        ...common,
        '-H',
        `content-type: ${r.type}`,
        ...(r.chunked ? ['-H', 'Transfer-Encoding: chunked'] : []),
        '--data-binary',
        `@${files.get(r.name)!}`,
        '-o',
        out,
        '-w',
        '%{http_code} %{num_connects}\\n',
        `${cliOf().url}${r.path()}`,
        '--next',
        ...common,
        '-H',
        `content-type: ${JSON_TYPE}`,
        '-d',
        LIST,
        '-o',
        '/dev/null',
        '-w',
        '%{http_code} %{num_connects}\\n',
        `${cliOf().url}/api/contract`,
      ]);
      const [first, second] = stdout
        .trim()
        .split('\n')
        .map((line) => line.split(' ').map(Number));
      return {
        status: first![0]!,
        body: readFileSync(out, 'utf8'),
        next: second![0]!,
        sameConnection: second![1] === 0,
      };
    },
  ],
  [
    'a raw socket',
    async (r) => {
      const socket = await RawConnection.open(Number(new URL(cliOf().url).port));
      try {
        const bytes = r.body();
        const framing = r.chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${bytes.length}`;
        socket.write(
          `POST ${r.path()} HTTP/1.1\r\nHost: localhost\r\nx-service-key: ${DEMO.apiKey}\r\nContent-Type: ${r.type}\r\n${framing}\r\n\r\n`,
        );
        if (!r.chunked) socket.write(bytes);
        else {
          for (let i = 0; i < bytes.length; i += 65_536) {
            const chunk = bytes.subarray(i, i + 65_536);
            socket.write(Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]));
          }
          socket.write('0\r\n\r\n');
        }
        const refused = await socket.answer();
        const closesAfter = refused?.headers.connection === 'close';
        socket.write(
          `POST /api/contract HTTP/1.1\r\nHost: localhost\r\nx-service-key: ${DEMO.apiKey}\r\nContent-Type: ${JSON_TYPE}\r\nContent-Length: ${LIST.length}\r\n\r\n${LIST}`,
        );
        const next = await socket.answer();
        return {
          status: refused?.status ?? 0,
          body: refused?.body ?? '',
          next: next?.status ?? 0,
          sameConnection: !closesAfter && next !== undefined,
        };
      } finally {
        socket.close();
      }
    },
  ],
];

/** argv: url, path, body file, content type, chunked (1/0), api key, the next request's JSON body. */
const PYTHON_CLIENT = `
import http.client, json, sys, urllib.error, urllib.parse, urllib.request
url, path, file, ctype, chunked, key, listing = sys.argv[1:8]
chunked = chunked == '1'
data = open(file, 'rb').read()
def body():
    return (data[i:i + 65536] for i in range(0, len(data), 65536)) if chunked else data
headers = {'x-service-key': key, 'content-type': ctype}
try:
    with urllib.request.urlopen(urllib.request.Request(url + path, data=body(), headers=headers, method='POST')) as r:
        status, text = r.status, r.read()
except urllib.error.HTTPError as e:
    status, text = e.code, e.read()
where = urllib.parse.urlsplit(url)
conn = http.client.HTTPConnection(where.hostname, where.port)
conn.request('POST', path, body=body(), headers=headers, encode_chunked=chunked)
again = conn.getresponse()
again.read()
sock = conn.sock
conn.request('POST', '/api/contract', body=listing, headers={'x-service-key': key, 'content-type': 'application/json'})
following = conn.getresponse()
following.read()
same = sock is not None and conn.sock is sock and again.status == status
print(json.dumps({'status': status, 'body': text.decode(), 'next': following.status, 'sameConnection': same}))
`;

beforeAll(async () => {
  const made = await fetch(`${cliOf().url}/api/contract`, {
    method: 'POST',
    headers: headers(JSON_TYPE),
    body: JSON.stringify({
      data: { action: 'create', clientKey: DEMO.clientKey, contract: { name: 'p', contractType: 'pdf' } },
    }),
  });
  contractKey = ((await made.json()) as { contract: { contractKey: string } }).contract.contractKey;
  const dir = scratchDir('refusal-bodies-');
  for (const r of REFUSALS) {
    const file = join(dir, `${files.size}.body`);
    writeFileSync(file, r.body());
    files.set(r.name, file);
  }
});

describe.each(CLIENTS)('%s', (_client, send) => {
  it.each(REFUSALS)(
    'reads $status for $name, then the next request on the same connection is answered',
    async (r) => {
      const met = await send(r);
      expect(met.status).toBe(r.status);
      expect(JSON.parse(met.body)).toMatchObject({ code: r.status, message: expect.stringMatching(r.message) });
      expect(met.next).toBe(200);
      expect(met.sameConnection).toBe(true);
    },
    60_000,
  );
});

describe("Node's fetch", () => {
  it('reads the 413 of a 40 MB upload, then the next request on the same connection is answered', async () => {
    const [, send] = CLIENTS[0]!;
    const met = await send({ ...REFUSALS[0]!, name: '40 MB', body: () => upload(40 * MB) });
    expect([met.status, met.next, met.sameConnection]).toEqual([413, 200, true]);
  }, 60_000);
});

/**
 * What Python's urllib and requests and curl report for each connection fault and for dribble (docs/errors.md,
 * "Connection faults: what each client sees"), against the built CLI: the table there is what these clients met. After
 * each fault, the same client's next request is answered as usual.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { cliPerFile } from '../support/cli-process.js';
import { DEMO } from '../support/helpers.js';
import { PYTHON } from '../support/python.js';

const run = promisify(execFile);
const cliOf = cliPerFile(['--quiet']);
const LIST = JSON.stringify({ data: { action: 'list', clientKey: DEMO.clientKey } });

async function setFault(fault: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${cliOf().url}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ match: { path: '/api/contract' }, times: 1, ...fault }),
  });
  expect(res.status).toBe(201);
}
afterEach(async () => {
  await fetch(`${cliOf().url}/__sandbox/faults`, { method: 'DELETE' });
});

/** Sends the listing twice with one library; prints what each attempt met, one line each. */
const PYTHON_CLIENT = `
import json, sys, urllib.request
url, lib, key, listing = sys.argv[1:5]
headers = {'content-type': 'application/json', 'x-service-key': key}
def attempt():
    try:
        if lib == 'requests':
            import requests
            r = requests.post(url + '/api/contract', data=listing, headers=headers, timeout=60)
            return 'answered %d %d' % (r.status_code, len(r.content))
        request = urllib.request.Request(url + '/api/contract', data=listing.encode(), headers=headers)
        with urllib.request.urlopen(request, timeout=60) as r:
            return 'answered %d %d' % (r.status, len(r.read()))
    except Exception as e:
        return '%s.%s: %s' % (type(e).__module__, type(e).__name__, str(e)[:120])
print(attempt())
print(attempt())
`;

async function python(lib: 'urllib' | 'requests'): Promise<[string, string]> {
  const { stdout } = await run(PYTHON, ['-c', PYTHON_CLIENT, cliOf().url, lib, DEMO.apiKey, LIST]);
  const [first, second] = stdout.trim().split('\n');
  return [first!, second!];
}

/** curl's exit code and its error line, then the next request's status (a second curl). */
async function curl(extra: string[] = []): Promise<[number, string, string]> {
  const args = ['-sS', '-XPOST', '-H', 'content-type: application/json', '-H', `x-service-key: ${DEMO.apiKey}`];
  const listing = [...args, '-d', LIST, '-o', '/dev/null', '-w', '%{http_code}', `${cliOf().url}/api/contract`];
  const first = await run('curl', [...extra, ...listing]).then(
    () => [0, ''] as const,
    (error: { code: number; stderr: string }) => [error.code, error.stderr.trim()] as const,
  );
  const { stdout: next } = await run('curl', listing);
  return [first[0], first[1], next];
}

const ANSWERED = /^answered 200 \d+$/;

describe.each([
  {
    connection: 'reset',
    urllib: /^builtins\.ConnectionResetError: \[Errno 104\] Connection reset by peer/,
    requests: /^requests\.exceptions\.ConnectionError: .*Connection aborted.*ConnectionResetError\(104/,
    curl: [56, /Recv failure: Connection reset by peer/],
  },
  {
    connection: 'empty',
    urllib: /^http\.client\.RemoteDisconnected: Remote end closed connection without response/,
    requests: /^requests\.exceptions\.ConnectionError: .*Connection aborted.*RemoteDisconnected/,
    curl: [52, /Empty reply from server/],
  },
  {
    connection: 'garbage',
    urllib: /^http\.client\.BadStatusLine: /,
    requests: /^requests\.exceptions\.ConnectionError: .*Connection aborted.*BadStatusLine/,
    curl: [1, /Received HTTP\/0\.9 when not allowed/],
  },
  {
    connection: 'malformed-chunk',
    urllib: /^http\.client\.IncompleteRead: IncompleteRead\(\d+ bytes read\)/,
    requests: /^requests\.exceptions\.ChunkedEncodingError: .*InvalidChunkLength\(got length b'zz\\r\\n'/,
    curl: [56, /Illegal or missing hexadecimal sequence in chunked-encoding/],
  },
] as const)('connection: $connection', ({ connection, urllib, requests, curl: [exit, line] }) => {
  it("Python's urllib raises it, then the next request is answered", async () => {
    await setFault({ connection });
    const [first, next] = await python('urllib');
    expect(first).toMatch(urllib);
    expect(next).toMatch(ANSWERED);
  });

  it("Python's requests raises it, then the next request is answered", async () => {
    await setFault({ connection });
    const [first, next] = await python('requests');
    expect(first).toMatch(requests);
    expect(next).toMatch(ANSWERED);
  });

  it('curl exits with its code, then the next request is answered', async () => {
    await setFault({ connection });
    const [code, stderr, next] = await curl();
    expect([code, stderr]).toEqual([exit, expect.stringMatching(line)]);
    expect(next).toBe('200');
  });
});

describe('dribble', () => {
  it.each(['urllib', 'requests'] as const)("Python's %s gets the whole answer", async (lib) => {
    const [whole] = await python(lib);
    await setFault({ dribble: '500ms' });
    expect(await python(lib)).toEqual([whole, whole]);
  });

  it('curl gets the whole answer, and --max-time shorter than the dribble cuts it off (exit 28)', async () => {
    await setFault({ dribble: '500ms' });
    expect(await curl()).toEqual([0, '', '200']);
    await setFault({ dribble: '3s' });
    const [code, stderr] = await curl(['--max-time', '1']);
    expect(code).toBe(28);
    expect(stderr).toMatch(/Operation timed out after \d+ milliseconds with \d+ out of \d+ bytes received/);
  });
});

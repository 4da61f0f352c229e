/**
 * The render queue (docs/documents.md "Work limits"): jobs run one at a time in the order they came,
 * 32 more wait, and one past that is refused with a 503 and Retry-After; downloads of one document at once share
 * one render, and only distinct documents past the queue's bound are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/core/errors.js';
import { RENDER_QUEUE, queuedRenderer } from '../../src/render/queue.js';
import { sharedRenderer } from '../../src/render/shared.js';
import { type Renderer, createRenderer, inProcessRenderer } from '../../src/render/renderer.js';
import { download } from '../support/documents-kit.js';
import { DEMO, FROZEN, type TestSandbox, testSandbox } from '../support/helpers.js';

/** A contract of `html` with one signer, signed: its PDF is the one the downloads below ask for. */
async function signedContract(t: TestSandbox, name: string, html: string): Promise<string> {
  const made = await t.post(
    '/api/contract',
    {
      data: {
        action: 'create',
        clientKey: DEMO.clientKey,
        contract: { name, value: `${html}<p><sign1></sign1></p>` },
        recipients: [{ fullname: 'Ada Lovelace', email: 'ada@example.com', action: 'sign' }],
      },
    },
    { apiKey: DEMO.apiKey },
  );
  const contractKey = made.body.contract.contractKey as string;
  const recipient = (await t.control(`/contracts/${contractKey}`)).body.recipients[0].recipientKey;
  expect((await t.control(`/recipients/${recipient}/sign`, {})).status).toBe(200);
  return contractKey;
}

/** A renderer whose jobs end when the test says so, noting when each starts. */
function heldRenderer() {
  const started: string[] = [];
  const release: (() => void)[] = [];
  const job = (name: string) => {
    started.push(name);
    return new Promise<Uint8Array>((resolve) => release.push(() => resolve(new TextEncoder().encode(name))));
  };
  const renderer: Renderer = {
    inspectPdf: async () => ({ pages: [] }),
    pdf: (j) => job(j.title),
    docx: (j) => job(j.title),
    sanitise: async (html) => html,
  };
  return { renderer, started, release };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the render queue', () => {
  it('runs one job at a time, in order; the 34th job at once is refused with a 503 and Retry-After', async () => {
    const { renderer, started, release } = heldRenderer();
    const queued = queuedRenderer(renderer);
    const jobs = Array.from({ length: 1 + RENDER_QUEUE.waiting }, (_, i) =>
      queued.pdf({ title: `job ${i}`, at: 0, content: { kind: 'html', html: '', fills: new Map() } }),
    );
    const refused = await queued.docx({ title: 'one too many', at: 0, html: '', fills: new Map() }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(503);
    expect((refused as ApiError).message).toMatch(/renderer is busy: 1 job\(s\) running and 32 waiting, the limit/);
    expect(Number((refused as ApiError).headers?.['Retry-After'])).toBeGreaterThanOrEqual(1);
    await settle();
    expect(started).toEqual(['job 0']);
    for (let i = 1; i <= RENDER_QUEUE.waiting; i++) {
      release.shift()!();
      await settle();
      expect(started).toEqual(Array.from({ length: i + 1 }, (_, k) => `job ${k}`));
    }
    release.shift()!();
    const answers = await Promise.all(jobs);
    expect(answers.map((a) => new TextDecoder().decode(a))).toEqual(started);
    // The queue is empty again: a new job starts at once.
    void queued.pdf({ title: 'after', at: 0, content: { kind: 'html', html: '', fills: new Map() } });
    await settle();
    expect(started.at(-1)).toBe('after');
  });

  it('frees its slot when a job fails', async () => {
    const queued = queuedRenderer<Renderer>({
      inspectPdf: async () => {
        throw new ApiError(400, 'not a PDF');
      },
      pdf: async () => new Uint8Array([1]),
      docx: async () => new Uint8Array([2]),
      sanitise: async (html) => html,
    });
    await expect(queued.inspectPdf(new Uint8Array())).rejects.toThrow('not a PDF');
    await expect(
      queued.pdf({ title: '', at: 0, content: { kind: 'html', html: '', fills: new Map() } }),
    ).resolves.toEqual(new Uint8Array([1]));
  });
});

/** The in-process renderer under the sandbox's queue and sharing (createRenderer), counting the jobs it draws. */
function countedSandbox() {
  const drawing = { now: 0, most: 0, jobs: 0 };
  const inner = inProcessRenderer();
  const count =
    <A, R>(draw: (arg: A) => Promise<R>) =>
    async (arg: A): Promise<R> => {
      drawing.now++;
      drawing.jobs++;
      drawing.most = Math.max(drawing.most, drawing.now);
      try {
        return await draw(arg);
      } finally {
        drawing.now--;
      }
    };
  const draw = {
    inspectPdf: count(inner.inspectPdf),
    pdf: count(inner.pdf),
    docx: count(inner.docx),
    sanitise: count(inner.sanitise),
    close: async () => {},
  };
  return { drawing, start: () => testSandbox(FROZEN, { port: 0, renderer: createRenderer(RENDER_QUEUE, draw) }) };
}

const LEASE = `<h1>Lease</h1>${'<p>The tenant pays the rent on the first day of each month.</p>'.repeat(200)}`;

describe('downloads of one document at once (docs/documents.md, "One render per document")', () => {
  const { drawing, start } = countedSandbox();
  let t: TestSandbox;
  let contractKey: string;
  beforeAll(async () => {
    t = await start();
    contractKey = await signedContract(t, 'Two hundred', LEASE);
  });
  afterAll(() => t.close());

  it('200 at once: 200 answers, the same PDF, one render; a repeat of the unchanged document renders nothing', async () => {
    const path = `/api/download_pdf?contractKey=${contractKey}&clientKey=${DEMO.clientKey}`;
    const before = drawing.jobs;
    const answers = await Promise.all(Array.from({ length: 200 }, () => download(t, path, { apiKey: DEMO.apiKey })));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    for (const answer of answers) expect(Buffer.from(answer.bytes).equals(Buffer.from(answers[0]!.bytes))).toBe(true);
    expect(Buffer.from(answers[0]!.bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    expect(drawing.jobs - before).toBe(1);
    expect((await download(t, path, { apiKey: DEMO.apiKey })).status).toBe(200);
    expect(drawing.jobs - before).toBe(1);
    // The DOCX is another document: one render of its own.
    const docx = `/api/download_docx?contractKey=${contractKey}&clientKey=${DEMO.clientKey}`;
    const docs = await Promise.all(Array.from({ length: 20 }, () => download(t, docx, { apiKey: DEMO.apiKey })));
    expect(docs.map((a) => a.status)).toEqual(docs.map(() => 200));
    expect(drawing.jobs - before).toBe(2);
  });

  it('a changed document is drawn again', async () => {
    const path = `/api/download_pdf?contractKey=${contractKey}&clientKey=${DEMO.clientKey}`;
    expect((await download(t, path, { apiKey: DEMO.apiKey })).status).toBe(200);
    const before = drawing.jobs;
    await t.control('/clock/advance', { by: '1m' });
    await t.post(
      '/api/contract',
      { data: { action: 'update', clientKey: DEMO.clientKey, contract: { contractKey, name: 'Renamed' } } },
      { apiKey: DEMO.apiKey },
    );
    expect((await download(t, path, { apiKey: DEMO.apiKey })).status).toBe(200);
    expect(drawing.jobs - before).toBe(1);
  });
});

describe('50 distinct documents at once', () => {
  const { drawing, start } = countedSandbox();
  let t: TestSandbox;
  const keys: string[] = [];
  beforeAll(async () => {
    t = await start();
    for (let i = 0; i < 50; i++) keys.push(await signedContract(t, `Lease ${i}`, LEASE));
  });
  afterAll(() => t.close());

  it('each answers its PDF or a 503 with Retry-After; every retry after it succeeds; never two drawn at once', async () => {
    const path = (key: string) => `/api/download_pdf?contractKey=${key}&clientKey=${DEMO.clientKey}`;
    const answers = await Promise.all(keys.map((key) => download(t, path(key), { apiKey: DEMO.apiKey })));
    const refused = keys.filter((_, i) => answers[i]!.status === 503);
    // The queue takes one running and RENDER_QUEUE.waiting waiting (more if the first ends before the last arrive).
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(1 + RENDER_QUEUE.waiting);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of answers.filter((a) => a.status !== 200)) {
      expect(answer.status).toBe(503);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(answer.json).toMatchObject({ code: 503, message: expect.stringMatching(/renderer is busy/) });
    }
    const retries = await Promise.all(refused.map((key) => download(t, path(key), { apiKey: DEMO.apiKey })));
    expect(retries.map((a) => a.status)).toEqual(retries.map(() => 200));
    expect(drawing.most).toBe(1);
  });
});

describe('the files kept for repeats', () => {
  it('are the last ones made, within the bounds in files and bytes; a large file is shared but not kept', async () => {
    const drawn: string[] = [];
    const renderer = sharedRenderer(
      {
        inspectPdf: async () => ({ pages: [] }),
        pdf: async (job) => {
          drawn.push(job.title);
          return new Uint8Array(job.title === 'large' ? 300 : 100);
        },
        docx: async () => new Uint8Array(0),
        sanitise: async (html) => html,
      },
      { files: 2, bytes: 1000 },
    );
    const pdf = (title: string) =>
      renderer.pdf({ title, at: 0, content: { kind: 'html', html: '', fills: new Map() } });
    for (const title of ['a', 'b', 'c', 'b', 'a', 'large', 'large']) await pdf(title);
    // a, b, c drawn; b kept; a was pushed out by c; large (over a quarter of the bytes) is drawn each time.
    expect(drawn).toEqual(['a', 'b', 'c', 'a', 'large', 'large']);
    await Promise.all([pdf('large'), pdf('large'), pdf('large')]);
    expect(drawn.filter((t) => t === 'large')).toHaveLength(3);
  });
});

/**
 * The render queue (issue 28 §5, docs/documents.md "Work limits"): jobs run one at a time in the order they came,
 * 32 more wait, and one past that is refused with a 503 and Retry-After; a burst of downloads of one signed
 * contract gets the same file for every job taken and a clear refusal for the others.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/core/errors.js';
import { RENDER_QUEUE, queuedRenderer } from '../../src/render/queue.js';
import { type Renderer, inProcessRenderer } from '../../src/render/renderer.js';
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

describe('a burst of downloads of one signed contract', () => {
  let t: TestSandbox;
  let contractKey: string;
  const API = { apiKey: DEMO.apiKey } as const;
  beforeAll(async () => {
    t = await testSandbox(FROZEN);
    contractKey = await signedContract(
      t,
      'Burst',
      `<h1>Lease</h1>${'<p>The tenant pays the rent on the first day of each month. '.repeat(40)}</p>`.repeat(3),
    );
  });
  afterAll(() => t.close());

  it('40 at once: the queue takes 33, every one answers the same PDF, the others a 503 with Retry-After', async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        download(t, `/api/download_pdf?contractKey=${contractKey}&clientKey=${DEMO.clientKey}`, API),
      ),
    );
    const files = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 503);
    expect(files.length + refused.length).toBe(40);
    expect(files.length).toBeGreaterThanOrEqual(1 + RENDER_QUEUE.waiting);
    expect(refused.length).toBeGreaterThan(0);
    for (const file of files) expect(Buffer.from(file.bytes).equals(Buffer.from(files[0]!.bytes))).toBe(true);
    expect(Buffer.from(files[0]!.bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    for (const answer of refused) {
      expect(answer.json).toMatchObject({ code: 503, message: expect.stringMatching(/renderer is busy/) });
    }
    // Then the queue is free again.
    const after = await download(t, `/api/download_pdf?contractKey=${contractKey}&clientKey=${DEMO.clientKey}`, API);
    expect(after.status).toBe(200);
  });

  it('answers Retry-After on a refusal', async () => {
    const responses = await Promise.all(
      Array.from({ length: 45 }, () =>
        t.sandbox.app.request(`/api/download_docx?contractKey=${contractKey}&clientKey=${DEMO.clientKey}`, {
          headers: { 'x-service-key': DEMO.apiKey },
        }),
      ),
    );
    const refused = responses.filter((r) => r.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await Promise.all(responses.map((r) => r.arrayBuffer()));
  });
});

describe('50 downloads at once of a signed contract (issue 28, item 5)', () => {
  /** The in-process renderer, counting the jobs that draw at once. */
  const drawing = { now: 0, most: 0, jobs: 0 };
  const counted = (): Renderer => {
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
    return {
      inspectPdf: count(inner.inspectPdf),
      pdf: count(inner.pdf),
      docx: count(inner.docx),
      sanitise: count(inner.sanitise),
    };
  };
  let t: TestSandbox;
  let contractKey: string;
  beforeAll(async () => {
    t = await testSandbox(FROZEN, { port: 0, renderer: { ...queuedRenderer(counted()), close: async () => {} } });
    contractKey = await signedContract(
      t,
      'Fifty',
      `<h1>Lease</h1>${'<p>The tenant pays the rent on the first day of each month.</p>'.repeat(200)}`,
    );
  });
  afterAll(() => t.close());

  it('each answers its PDF or a 503 with Retry-After, and the renderer never draws two at once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        t.sandbox.app.request(`/api/download_pdf?contractKey=${contractKey}&clientKey=${DEMO.clientKey}`, {
          headers: { 'x-service-key': DEMO.apiKey },
        }),
      ),
    );
    const files: Buffer[] = [];
    for (const answer of answers) {
      const bytes = Buffer.from(await answer.arrayBuffer());
      if (answer.status === 200) files.push(bytes);
      else {
        expect(answer.status).toBe(503);
        expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(JSON.parse(bytes.toString())).toMatchObject({ code: 503, message: expect.stringMatching(/busy/) });
      }
    }
    // The queue takes one running and RENDER_QUEUE.waiting waiting (more if the first ends before the last arrive);
    // the rest are refused.
    expect(files.length).toBeGreaterThanOrEqual(1 + RENDER_QUEUE.waiting);
    for (const file of files) expect(file.equals(files[0]!)).toBe(true);
    expect(files[0]!.subarray(0, 5).toString()).toBe('%PDF-');
    expect(drawing.jobs).toBe(files.length);
    expect(drawing.most).toBe(1);
  });
});

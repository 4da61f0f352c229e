/**
 * Each readiness check over observations written by hand (docs/readiness.md): a case where it fires and one where it
 * stays silent, with wall times chosen here, so nothing depends on how fast the machine is.
 */
import { describe, expect, it } from 'vitest';
import { buildReport } from '../../src/readiness/report.js';
import type { AttemptSeen, DeliverySeen, Observed, RequestSeen, WebhookSeen } from '../../src/readiness/observed.js';
import { CHECK_IDS } from '../../src/readiness/checks.js';

const T0 = Date.parse('2026-03-01T09:00:00Z');
let nextId = 1;

/** A request; unless said, it arrives after every request before it was answered, in order of its wall time. */
function request(fields: Partial<RequestSeen> & { wall: number }): RequestSeen {
  const id = nextId++;
  return {
    id,
    arrived: fields.wall * 10,
    answered: fields.wall * 10 + 1,
    at: T0,
    durationMs: 1,
    method: 'POST',
    path: '/api/contract',
    action: 'create',
    status: 201,
    platformId: 'P1',
    token: 'tokA',
    ...fields,
  };
}

const read = (wall: number, contractKey = 'C1', fields: Partial<RequestSeen> = {}) =>
  request({
    wall,
    action: 'read',
    status: 200,
    reads: { subject: `contract ${contractKey}`, contractKey },
    ...fields,
  });

function attempt(fields: Partial<AttemptSeen> & { wall: number }): AttemptSeen {
  return { at: T0, trigger: 'first', statusCode: 200, durationMs: 5, shaping: [], ...fields };
}

function delivery(attempts: AttemptSeen[], fields: Partial<DeliverySeen> = {}): DeliverySeen {
  return {
    id: `d${nextId++}`,
    event: 'contract.signed',
    platformId: 'P1',
    clientKey: 'K1',
    contractKey: 'C1',
    webhookKey: 'W1',
    attempts,
    ...fields,
  };
}

const webhook: WebhookSeen = { platformId: 'P1', clientKey: 'K1', webhookKey: 'W1', subscribed: true };

async function found(observed: Partial<Observed>, options: Record<string, unknown> = {}) {
  const report = await buildReport({ requests: [], deliveries: [], webhooks: [webhook], ...observed }, options, {
    at: '2026-03-01T09:00:00.000Z',
    journalCapacity: 1000,
  });
  return { report, ids: report.findings.filter((f) => f.severity !== 'info').map((f) => f.id) };
}

const times = (n: number, gapMs: number, from = T0) => Array.from({ length: n }, (_, i) => from + i * gapMs);

/** Per check: observations that make it fire, and close ones that must not. */
const CASES: { id: string; fires: Partial<Observed>; silent: Partial<Observed>; options?: Record<string, unknown> }[] =
  [
    {
      id: 'polling',
      fires: { requests: times(10, 1000).map((w) => read(w)) },
      // A read after each delivery about the contract is a webhook-driven refresh, not polling.
      silent: {
        requests: times(10, 1000).map((w) => read(w)),
        deliveries: times(10, 1000).map((w) => delivery([attempt({ wall: w - 10 })])),
      },
    },
    {
      id: 'ignores-retry-after',
      fires: {
        requests: [
          request({ wall: T0, status: 503, retryAfter: 2, durationMs: 3 }),
          request({ wall: T0 + 500, status: 201 }),
        ],
      },
      silent: {
        requests: [
          request({ wall: T0, status: 503, retryAfter: 2, durationMs: 3 }),
          request({ wall: T0 + 2003, status: 201 }),
        ],
      },
    },
    {
      id: 'expired-token-reused',
      fires: {
        requests: [
          request({ wall: T0, status: 401, message: 'Token expired', action: 'read' }),
          request({ wall: T0 + 50, status: 401, message: 'Token expired', action: 'read' }),
        ],
      },
      silent: {
        requests: [
          request({ wall: T0, status: 401, message: 'Token expired', action: 'read' }),
          request({ wall: T0 + 10, path: '/api/token', action: 'create', token: undefined, status: 201 }),
          request({ wall: T0 + 20, token: 'tokB', action: 'read', status: 200 }),
        ],
      },
    },
    {
      id: 'token-per-request',
      fires: {
        requests: times(10, 100).flatMap((w, i) => [
          request({ wall: w, path: '/api/token', action: 'create', token: undefined, status: 201 }),
          request({ wall: w + 1, token: `tok${i}` }),
        ]),
      },
      silent: {
        requests: [
          request({ wall: T0, path: '/api/token', action: 'create', token: undefined, status: 201 }),
          ...times(10, 100, T0 + 10).map((w) => request({ wall: w })),
        ],
      },
    },
    {
      id: 'accepts-forged-webhook',
      fires: { deliveries: [delivery([attempt({ wall: T0, shaping: ['bad-signature'] })])] },
      silent: {
        deliveries: [
          delivery([
            attempt({ wall: T0, shaping: ['bad-signature'], statusCode: 401 }),
            attempt({ wall: T0 + 1, trigger: 'retry' }),
          ]),
        ],
      },
    },
    {
      id: 'accepts-stale-webhook',
      fires: { deliveries: [delivery([attempt({ wall: T0, shaping: ['stale-timestamp'] })])] },
      silent: { deliveries: [delivery([attempt({ wall: T0, shaping: ['stale-timestamp'], statusCode: 400 })])] },
    },
    {
      id: 'webhook-receiver-failing',
      fires: { deliveries: [delivery([attempt({ wall: T0, statusCode: undefined, error: 'ECONNREFUSED' })])] },
      // An outage the sandbox simulated answered for the receiver: it says nothing about the receiver.
      silent: {
        deliveries: [
          delivery([
            attempt({ wall: T0, statusCode: 503, shaping: ['outage'] }),
            attempt({ wall: T0 + 1, trigger: 'retry' }),
          ]),
        ],
      },
    },
    {
      id: 'slow-webhook-receiver',
      fires: { deliveries: [delivery([attempt({ wall: T0, durationMs: 6000 })])] },
      silent: { deliveries: [delivery([attempt({ wall: T0, durationMs: 4000 })])] },
    },
    {
      id: 'rejects-duplicate',
      fires: {
        deliveries: [
          delivery([attempt({ wall: T0 }), attempt({ wall: T0 + 1, trigger: 'duplicate', statusCode: 409 })]),
        ],
      },
      silent: { deliveries: [delivery([attempt({ wall: T0 }), attempt({ wall: T0 + 1, trigger: 'duplicate' })])] },
    },
    {
      id: 'client-errors',
      fires: {
        requests: [
          ...times(3, 10).map((w) => request({ wall: w, status: 400, message: 'Validation failed' })),
          ...times(3, 10, T0 + 100).map((w) => request({ wall: w })),
        ],
      },
      // Refusals the sandbox provoked on purpose: a fault's, the quota's, a dead token's.
      silent: {
        requests: [
          request({ wall: T0, status: 400, fault: 'bad-day' }),
          request({ wall: T0 + 1, status: 429, retryAfter: 1 }),
          request({ wall: T0 + 2000, status: 401, message: 'Token revoked' }),
          request({ wall: T0 + 2001, token: 'tokB' }),
        ],
      },
    },
  ];

describe('each check, over observations written by hand', () => {
  it('covers every check that judges the integration', () => {
    expect(CASES.map((c) => c.id).sort()).toEqual(CHECK_IDS.filter((id) => !id.startsWith('untested-')).sort());
  });

  for (const c of CASES) {
    it(`${c.id} fires`, async () => {
      const { ids, report } = await found(c.fires, c.options);
      expect(ids).toEqual([c.id]);
      const finding = report.findings.find((f) => f.id === c.id)!;
      expect(finding.count).toBeGreaterThan(0);
      expect(finding.evidence.length).toBeGreaterThan(0);
    });
    it(`${c.id} stays silent`, async () => {
      expect((await found(c.silent, c.options)).ids).toEqual([]);
    });
  }
});

/** Per hard case: the one observation that tries it (each `untested-…` finding fires without it, stays silent with it). */
const HARD_CASES: { id: string; tried: Partial<Observed> }[] = [
  { id: 'untested-token-expiry', tried: { requests: [request({ wall: T0, status: 401, message: 'Token expired' })] } },
  { id: 'untested-rate-limit', tried: { requests: [request({ wall: T0, status: 429, retryAfter: 1 })] } },
  { id: 'untested-server-error', tried: { requests: [request({ wall: T0, status: 503 })] } },
  { id: 'untested-webhooks', tried: { deliveries: [delivery([attempt({ wall: T0 })])] } },
  {
    id: 'untested-webhook-retry',
    tried: {
      deliveries: [
        delivery([
          attempt({ wall: T0, statusCode: 503, shaping: ['outage'] }),
          attempt({ wall: T0, trigger: 'retry' }),
        ]),
      ],
    },
  },
  {
    id: 'untested-duplicate-webhook',
    tried: { deliveries: [delivery([attempt({ wall: T0 }), attempt({ wall: T0, trigger: 'duplicate' })])] },
  },
  {
    id: 'untested-forged-webhook',
    tried: { deliveries: [delivery([attempt({ wall: T0, statusCode: 401, shaping: ['bad-signature'] })])] },
  },
  {
    id: 'untested-stale-webhook',
    tried: { deliveries: [delivery([attempt({ wall: T0, statusCode: 401, shaping: ['stale-timestamp'] })])] },
  },
  {
    id: 'untested-out-of-order-webhook',
    tried: { deliveries: [delivery([attempt({ wall: T0, shaping: ['out-of-order'] })])] },
  },
];

describe('each hard case never tried, over observations written by hand', () => {
  it('covers every untested-… check', () => {
    expect(HARD_CASES.map((c) => c.id)).toEqual(CHECK_IDS.filter((id) => id.startsWith('untested-')));
  });

  const untested = (report: Awaited<ReturnType<typeof found>>['report']) =>
    report.findings.filter((f) => f.severity === 'info').map((f) => f.id);
  for (const c of HARD_CASES) {
    it(`${c.id} fires when the run never met it`, async () => {
      const others = HARD_CASES.filter((other) => other.id !== c.id && other.id !== 'untested-webhooks');
      const { report } = await found({
        requests: others.flatMap((o) => o.tried.requests ?? []),
        deliveries: c.id === 'untested-webhooks' ? [] : others.flatMap((o) => o.tried.deliveries ?? []),
      });
      expect(untested(report)).toContain(c.id);
    });
    it(`${c.id} stays silent once the run met it`, async () => {
      const { report, ids } = await found(c.tried);
      expect(untested(report)).not.toContain(c.id);
      expect(ids).toEqual([]);
    });
  }
});

describe('the checks in detail', () => {
  it('polling needs the bound within the window, and a webhook registered', async () => {
    expect((await found({ requests: times(9, 1000).map((w) => read(w)) })).ids).toEqual([]);
    expect((await found({ requests: times(10, 7000).map((w) => read(w)) })).ids).toEqual([]);
    expect((await found({ requests: times(10, 1000).map((w) => read(w)), webhooks: [] })).ids).toEqual([]);
    expect((await found({ requests: times(5, 1000).map((w) => read(w)) }, { pollingReads: 5 })).ids).toEqual([
      'polling',
    ]);
  });

  it('polling names the subject and the reads', async () => {
    const { report } = await found({ requests: times(12, 100).map((w) => read(w, 'C9')) });
    const [finding] = report.findings;
    expect(finding).toMatchObject({ id: 'polling', severity: 'error', count: 12 });
    expect(finding!.evidence[0]).toMatchObject({ type: 'request', path: '/api/contract', action: 'read', status: 200 });
    expect(finding!.evidence[0]!.detail).toBe('12 reads of contract C9 within 1.1 s, none after a delivery about it');
  });

  it('ignores-retry-after: waiting by advancing the sandbox clock counts as waiting', async () => {
    const requests = [
      request({ wall: T0, at: T0, status: 429, retryAfter: 5 }),
      request({ wall: T0 + 20, at: T0 + 5000, status: 201 }),
    ];
    expect((await found({ requests })).ids).toEqual([]);
  });

  it('ignores-retry-after: another operation, or another tenant, is not a retry', async () => {
    const requests = [
      request({ wall: T0, status: 503, retryAfter: 2 }),
      request({ wall: T0 + 10, action: 'list', status: 200 }),
      request({ wall: T0 + 20, platformId: 'P2', status: 201 }),
    ];
    expect((await found({ requests })).ids).toEqual([]);
  });

  it('ignores-retry-after is judged from when the answer left, with the grace', async () => {
    const early = [request({ wall: T0, status: 429, retryAfter: 1, durationMs: 100 }), request({ wall: T0 + 1000 })];
    expect((await found({ requests: early })).ids).toEqual([]);
    expect((await found({ requests: early }, { retryAfterGrace: 0 })).ids).toEqual(['ignores-retry-after']);
  });

  it('expired-token-reused: a request already in flight when the 401 came back is no reuse', async () => {
    const requests = [
      request({ wall: T0, status: 401, message: 'Token expired', answered: T0 * 10 + 100 }),
      request({ wall: T0 + 5, status: 401, message: 'Token expired' }),
    ];
    expect((await found({ requests })).ids).toEqual([]);
  });

  it('evidence names tokens by number, never by value', async () => {
    const requests = [
      request({ wall: T0, token: 'secret-token-value', status: 401, message: 'Token revoked' }),
      request({ wall: T0 + 100, token: 'secret-token-value', status: 401, message: 'Token revoked' }),
    ];
    const { report } = await found({ requests });
    expect(JSON.stringify(report)).not.toContain('secret-token-value');
    expect(report.findings[0]!.evidence.map((e) => e.detail)).toEqual([
      'token #1: "Token revoked"',
      'token #1 sent again after that 401',
    ]);
  });

  it('a duplicate the receiver fails, after it acknowledged the first, is rejects-duplicate, not failing', async () => {
    const deliveries = [
      delivery([attempt({ wall: T0 }), attempt({ wall: T0 + 1, trigger: 'redeliver', statusCode: 500 })]),
    ];
    expect((await found({ deliveries })).ids).toEqual(['rejects-duplicate']);
  });

  it('untested-… findings say what was never tried and how to try it', async () => {
    const { report } = await found({ requests: [request({ wall: T0 })] });
    const untested = report.findings.filter((f) => f.severity === 'info').map((f) => f.id);
    expect(untested).toEqual(CHECK_IDS.filter((id) => id.startsWith('untested-')));
    expect(report.findings.find((f) => f.id === 'untested-rate-limit')).toMatchObject({
      count: 0,
      evidence: [],
      title: 'Never tried: a 429 with Retry-After',
    });
    expect(report.verdict).toBe('ready');
  });

  it('what was tried is not untested', async () => {
    const requests = [
      request({ wall: T0, status: 429, retryAfter: 1 }),
      request({ wall: T0 + 5000, status: 503, retryAfter: 1 }),
      request({ wall: T0 + 9000, status: 401, message: 'Token expired' }),
    ];
    const deliveries = [
      delivery([
        attempt({ wall: T0, shaping: ['bad-signature'], statusCode: 401 }),
        attempt({ wall: T0 + 1, trigger: 'retry' }),
        attempt({ wall: T0 + 2, trigger: 'duplicate' }),
      ]),
      delivery([attempt({ wall: T0, shaping: ['stale-timestamp', 'out-of-order'], statusCode: 401 })]),
    ];
    const { report } = await found({ requests, deliveries });
    expect(report.findings).toEqual([]);
  });

  it('not-ready exactly when there is an error finding', async () => {
    const warningOnly = await found({ deliveries: [delivery([attempt({ wall: T0, durationMs: 9000 })])] });
    expect(warningOnly.ids).toEqual(['slow-webhook-receiver']);
    expect(warningOnly.report.verdict).toBe('ready');
    const error = await found({ deliveries: [delivery([attempt({ wall: T0, shaping: ['bad-signature'] })])] });
    expect(error.report.verdict).toBe('not-ready');
  });

  it('ignore leaves checks out, and refuses an id no check has', async () => {
    const { report } = await found(
      { deliveries: [delivery([attempt({ wall: T0, shaping: ['bad-signature'] })])] },
      { ignore: 'accepts-forged-webhook' },
    );
    expect(report.verdict).toBe('ready');
    expect(report.checks.find((c) => c.id === 'accepts-forged-webhook')!.result).toBe('ignored');
    await expect(found({}, { ignore: ['pollin'] })).rejects.toThrow(/ignore names no check: "pollin"/);
  });

  it('keeps the first few evidence items and counts them all', async () => {
    const deliveries = Array.from({ length: 25 }, () => delivery([attempt({ wall: T0, shaping: ['bad-signature'] })]));
    const { report } = await found({ deliveries }, { evidence: 3 });
    expect(report.findings[0]).toMatchObject({ count: 25 });
    expect(report.findings[0]!.evidence).toHaveLength(3);
  });

  it('coverage: operations, errors met and events delivered and accepted', async () => {
    const requests = [
      request({ wall: T0 }),
      request({ wall: T0 + 1 }),
      request({ wall: T0 + 2, status: 404, message: 'Contract not found', action: 'read' }),
    ];
    const deliveries = [delivery([attempt({ wall: T0, statusCode: 500 })]), delivery([attempt({ wall: T0 })])];
    const { report } = await found({ requests, deliveries });
    expect(report.coverage).toEqual({
      operations: [
        { method: 'POST', path: '/api/contract', action: 'create', count: 2 },
        { method: 'POST', path: '/api/contract', action: 'read', count: 1 },
      ],
      errors: [{ status: 404, message: 'Contract not found', count: 1 }],
      events: [{ event: 'contract.signed', delivered: 2, accepted: 1 }],
    });
  });
});

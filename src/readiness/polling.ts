/**
 * `polling` (docs/readiness.md): one thing's status read again and again while a webhook would tell. A read that
 * follows a delivery about the same thing is a webhook-driven refresh, which is what a careful integration does; only
 * reads with no delivery about their subject since the previous read count towards the bound.
 */
import { type Check, type Indexed, Tally, requestEvidence, seconds } from './check.js';
import type { RequestSeen, StatusRead } from './observed.js';
import type { Thresholds } from './thresholds.js';
import { getOrAdd } from '../core/maps.js';

/** The /api reads a webhook makes unneeded, by path and action: what each reads (docs/readiness.md). */
const STATUS_READS: Record<string, (data: Record<string, unknown>) => StatusRead | undefined> = {
  'POST /api/contract read': (d) => {
    const key = (d.contract as { contractKey?: unknown } | undefined)?.contractKey;
    return typeof key === 'string' ? { subject: `contract ${key}`, contractKey: key } : undefined;
  },
  'POST /api/recipient list': (d) =>
    typeof d.contractKey === 'string'
      ? { subject: `recipients of contract ${d.contractKey}`, contractKey: d.contractKey }
      : undefined,
  'POST /api/contract list': (d) =>
    typeof d.clientKey === 'string'
      ? { subject: `contracts of client ${d.clientKey}`, clientKey: d.clientKey }
      : { subject: 'contracts of the client' },
};

/**
 * What a request reads whose status a webhook would tell, from its method, path, action and body (parsed only for
 * the reads that need it).
 */
export function statusRead(
  method: string,
  path: string,
  action: string | undefined,
  bodyOf: () => unknown,
): StatusRead | undefined {
  const reader = STATUS_READS[`${method} ${path} ${action ?? ''}`];
  if (!reader) return undefined;
  const body = bodyOf();
  if (body === null || typeof body !== 'object') return undefined;
  const data = (body as { data?: unknown }).data;
  return reader(data !== null && typeof data === 'object' ? (data as Record<string, unknown>) : {});
}

export const polling: Check = {
  id: 'polling',
  severity: 'error',
  title: 'Polls for a status a webhook would tell',
  looksFor:
    'pollingReads (10) or more reads of one contract, its recipients or a client’s contracts within pollingWindow (1m) of wall time, none after a delivery about it, while the tenant has a webhook',
  advice:
    'React to the contract.* webhooks instead: read a contract again when a delivery about it arrives, not on a timer. If you must poll, poll minutes apart.',
  run(o, t) {
    const prompts = promptTimes(o);
    // The reads of each tenant's subjects: a map per tenant, so that no key is made per read.
    const groups = new Map<string, Map<string, RequestSeen[]>>();
    for (const r of o.byArrival) {
      if (!r.reads || r.platformId === undefined || !o.tenantsWithWebhooks.has(r.platformId)) continue;
      if (r.status >= 400) continue;
      const tenant = getOrAdd(groups, r.platformId, () => new Map<string, RequestSeen[]>());
      getOrAdd(tenant, r.reads.subject, () => []).push(r);
    }
    const tally = new Tally(t.evidence);
    for (const reads of [...groups.values()].flatMap((tenant) => [...tenant.values()])) {
      const window = pollingWindow(reads, prompts, t);
      if (!window) continue;
      const first = window[0]!;
      const last = window.at(-1)!;
      const detail = () =>
        `${window.length} reads of ${first.reads!.subject} within ${seconds(last.wall - first.wall)}, none after a delivery about it`;
      tally.add(
        () => [requestEvidence(first, detail()), requestEvidence(last, `the last of those ${window.length} reads`)],
        window.length,
      );
    }
    return tally.outcome();
  },
};

/** Wall times of a tenant's delivery attempts, by what they tell about: a contract, a client's contracts, any. */
interface Prompts {
  contract: Map<string, number[]>;
  client: Map<string, number[]>;
  any: number[];
}

/** Each tenant's prompts, sorted (a map per tenant and per kind, so that no key is made per attempt). */
function promptTimes(o: Indexed): Map<string, Prompts> {
  const times = new Map<string, Prompts>();
  for (const d of o.deliveries) {
    const tenant = getOrAdd(times, d.platformId, (): Prompts => ({ contract: new Map(), client: new Map(), any: [] }));
    for (const a of d.attempts) {
      getOrAdd(tenant.contract, d.contractKey, () => []).push(a.wall);
      getOrAdd(tenant.client, d.clientKey, () => []).push(a.wall);
      tenant.any.push(a.wall);
    }
  }
  const sort = (list: number[]) => list.sort((a, b) => a - b);
  for (const tenant of times.values()) {
    for (const list of tenant.contract.values()) sort(list);
    for (const list of tenant.client.values()) sort(list);
    sort(tenant.any);
  }
  return times;
}

/**
 * The longest run of reads within the window in which no read followed a delivery about its subject, when it
 * reaches the bound; otherwise undefined.
 */
function pollingWindow(reads: RequestSeen[], prompts: Map<string, Prompts>, t: Thresholds): RequestSeen[] | undefined {
  const first = reads[0]!;
  const { contractKey, clientKey } = first.reads!;
  const tenant = prompts.get(first.platformId!);
  const about =
    contractKey !== undefined
      ? tenant?.contract.get(contractKey)
      : clientKey !== undefined
        ? tenant?.client.get(clientKey)
        : tenant?.any;
  let best: RequestSeen[] | undefined;
  let start = 0;
  for (let i = 1; i <= reads.length; i++) {
    // A delivery about the subject between two reads (or at the instant of the second) ends a run of unprompted reads.
    const broken = i === reads.length || (about !== undefined && anyIn(about, reads[i - 1]!.wall, reads[i]!.wall));
    if (!broken) continue;
    const run = longestWithin(reads.slice(start, i), t.pollingWindowMs);
    if (run.length >= t.pollingReads && run.length > (best?.length ?? 0)) best = run;
    start = i;
  }
  return best;
}

/** Whether a sorted list holds a time in (after, until]. */
function anyIn(sorted: number[], after: number, until: number): boolean {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= after) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length && sorted[lo]! <= until;
}

/** The longest stretch of reads (sorted by arrival) that fits in `windowMs`. */
function longestWithin(reads: RequestSeen[], windowMs: number): RequestSeen[] {
  let best: [number, number] = [0, 0];
  let from = 0;
  for (let to = 0; to < reads.length; to++) {
    while (reads[to]!.wall - reads[from]!.wall > windowMs) from++;
    if (to + 1 - from > best[1] - best[0]) best = [from, to + 1];
  }
  return reads.slice(best[0], best[1]);
}

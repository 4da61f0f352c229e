/**
 * `polling` (docs/readiness.md): one thing's status read again and again while a webhook would tell. A read that
 * follows a delivery about the same thing is a webhook-driven refresh, which is what a careful integration does; only
 * reads with no delivery about their subject since the previous read count towards the bound.
 */
import { type Check, type Indexed, Tally, requestEvidence, seconds } from './check.js';
import type { RequestSeen, StatusRead } from './observed.js';
import type { Thresholds } from './thresholds.js';
import { getOrAdd } from '../core/maps.js';
import { pause } from '../core/pause.js';

/**
 * What a request reads whose status a webhook would tell (docs/readiness.md), when it does not say (`reads`): a contract
 * (`POST /api/contract read`), its recipients (`POST /api/recipient list`) or a client's contracts (`POST /api/contract
 * list`), from the contract or client its body names (the journal took them when it recorded the request). A reader
 * is made per report: it makes one StatusRead per subject, shared by every read of it, rather than one per read.
 */
export function statusReader(): (r: RequestSeen) => StatusRead | undefined {
  const contracts = new Map<string, StatusRead>();
  const recipients = new Map<string, StatusRead>();
  const clients = new Map<string, StatusRead>();
  const anyClient: StatusRead = { subject: 'contracts of the client' };
  return ({ method, path, action, contractKey, clientKey }) => {
    if (method !== 'POST') return undefined;
    if (path === '/api/contract' && action === 'read' && contractKey !== undefined)
      return getOrAdd(contracts, contractKey, () => ({ subject: `contract ${contractKey}`, contractKey }));
    if (path === '/api/recipient' && action === 'list' && contractKey !== undefined)
      return getOrAdd(recipients, contractKey, () => ({
        subject: `recipients of contract ${contractKey}`,
        contractKey,
      }));
    if (path === '/api/contract' && action === 'list')
      return clientKey === undefined
        ? anyClient
        : getOrAdd(clients, clientKey, () => ({ subject: `contracts of client ${clientKey}`, clientKey }));
    return undefined;
  };
}

export const polling: Check = {
  id: 'polling',
  severity: 'error',
  title: 'Polls for a status a webhook would tell',
  looksFor:
    'pollingReads (10) or more reads of one contract, its recipients or a client’s contracts within pollingWindow (1m) of wall time, none after a delivery about it, while the tenant has a webhook',
  advice:
    'React to the contract.* webhooks instead: read a contract again when a delivery about it arrives, not on a timer. If you must poll, poll minutes apart.',
  // Three passes, each its own turn of the event loop: the longest check (docs/benchmarks.md, "readiness report").
  async run(o, t) {
    const prompts = promptTimes(o);
    await pause();
    const statusRead = statusReader();
    // The reads of each tenant's subjects: a map per tenant, so that no key is made per read.
    const groups = new Map<string, Map<string, Reads>>();
    for (const r of o.byArrival) {
      if (r.status >= 400 || r.platformId === undefined || !o.tenantsWithWebhooks.has(r.platformId)) continue;
      const subject = r.reads ?? statusRead(r);
      if (!subject) continue;
      const tenant = getOrAdd(groups, r.platformId, () => new Map<string, Reads>());
      getOrAdd(tenant, subject.subject, () => ({ subject, reads: [] })).reads.push(r);
    }
    await pause();
    const tally = new Tally(t.evidence);
    for (const reads of [...groups.values()].flatMap((tenant) => [...tenant.values()])) {
      const window = pollingWindow(reads, prompts, t);
      if (!window) continue;
      const first = window[0]!;
      const last = window.at(-1)!;
      const detail = () =>
        `${window.length} reads of ${reads.subject.subject} within ${seconds(last.wall - first.wall)}, none after a delivery about it`;
      tally.add(
        () => [requestEvidence(first, detail()), requestEvidence(last, `the last of those ${window.length} reads`)],
        window.length,
      );
    }
    return tally.outcome();
  },
};

/** The reads of one subject by one tenant, in order of arrival. */
interface Reads {
  subject: StatusRead;
  reads: RequestSeen[];
}

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
function pollingWindow(group: Reads, prompts: Map<string, Prompts>, t: Thresholds): RequestSeen[] | undefined {
  const { subject, reads } = group;
  const { contractKey, clientKey } = subject;
  const tenant = prompts.get(reads[0]!.platformId!);
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

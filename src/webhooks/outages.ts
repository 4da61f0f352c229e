/**
 * Simulated receiver outages (scenarios' `webhookOutage`, the library's `webhooks.startOutage`): while one matches a
 * delivery, its attempts fail without contacting the receiver, with the outage's status or a refused connection.
 */
import { KEEP_NOTHING, type Keeper, type KeptState } from '../core/kept.js';
import type { Delivery } from './delivery.js';
import type { AttemptOutcome } from './sender.js';
import { parseRetryAfter } from './schedule.js';

export type OutageMode = { status: number; retryAfter?: number } | { refuse: true };

export interface OutageSpec {
  webhookKey?: string;
  url?: string;
  clientKey?: string;
  platformId?: string;
  mode: OutageMode;
  /** Sandbox epoch ms at which the outage ends by itself. */
  until?: number;
  cause?: string;
}

export interface Outage extends OutageSpec {
  id: string;
}

export class Outages {
  private readonly active = new Map<string, Outage>();
  private seq = 0;
  /** Outages running are kept across a restart (core/kept.ts). */
  private readonly keeper: Keeper;

  constructor(kept: KeptState = KEEP_NOTHING) {
    this.keeper = kept.keep('outages', {
      record: (id) => this.active.get(id),
      keys: () => this.active.keys(),
      restore: (id, outage) => {
        this.active.set(id, outage as Outage);
        this.seq = Math.max(this.seq, Number(id.replace(/^out_/, '')) || 0);
      },
      clear: () => this.active.clear(),
    });
  }

  start(spec: OutageSpec): string {
    const id = `out_${++this.seq}`;
    this.active.set(id, { ...spec, id });
    this.keeper.changed(id);
    return id;
  }

  end(id: string): void {
    if (this.active.delete(id)) this.keeper.changed(id);
  }

  /** On reset: every outage, or one platform's. */
  reset(platformId: string | undefined): void {
    for (const [id, o] of this.active) {
      if (platformId === undefined || o.platformId === platformId) this.end(id);
    }
  }

  /** The outage that answers an attempt of this delivery at sandbox time `at`, if any (ended ones go). */
  for(d: Delivery, at: number): Outage | undefined {
    for (const [id, o] of this.active) {
      if (o.until !== undefined && at >= o.until) {
        this.end(id);
        continue;
      }
      if (o.webhookKey !== undefined && o.webhookKey !== d.webhookKey) continue;
      if (o.url !== undefined && o.url !== d.url) continue;
      if (o.clientKey !== undefined && o.clientKey !== d.clientKey) continue;
      if (o.platformId !== undefined && o.platformId !== d.platformId) continue;
      return o;
    }
    return undefined;
  }
}

/** What an attempt answered by an outage records. */
export function simulatedOutcome(outage: Outage, at: number): AttemptOutcome {
  if ('refuse' in outage.mode) return { ok: false, error: 'connection refused (simulated outage)', durationMs: 0 };
  const { status, retryAfter } = outage.mode;
  const ok = status >= 200 && status < 300;
  const retryAfterMs =
    (status === 429 || status === 503) && retryAfter !== undefined
      ? parseRetryAfter(String(Math.max(0, Math.round(retryAfter))), at)
      : undefined;
  return { ok, statusCode: status, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}), durationMs: 0 };
}

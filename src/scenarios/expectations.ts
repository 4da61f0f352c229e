/**
 * A scenario's `expect:` list (docs/scenarios.md, "expect"): each entry watches what the integration under test does
 * (its /api requests, the webhook deliveries it answers, the contracts' statuses) as it happens, in the order it
 * happens, and reports itself as met, pending or failed, with the evidence. Only what happens while the scenario is
 * active counts; a deadline (`by`, `within`) is judged on the sandbox clock.
 */
import { durationMs } from '../core/duration.js';
import { later } from '../core/time-range.js';
import { globMatches } from '../core/glob.js';
import { isoTime } from '../core/time-format.js';
import type { Store } from '../store/store.js';
import type { ScenarioExpectation } from '../control/sandbox-control.js';
import {
  type Happening,
  contractStatusOf,
  deliveryMatches,
  describe,
  requestMatches,
  triggerMatches,
  triggerText,
} from './happenings.js';
import type { Expectation } from './schema.js';
import { momentOf } from './matching.js';

interface Seen {
  at: number;
  what: string;
}

/** How far one expectation has got, as kept (docs/persistence.md, "What is kept"). */
export interface WatchState {
  /** When `after` first happened. */
  opened?: Seen;
  /** The first happening that meets (or, for noRequest/noDelivery, breaks) it within its window. */
  hit?: Seen;
}

interface Watch extends WatchState {
  id: string;
  spec: Expectation;
}

export class Expectations {
  private readonly watches: Watch[];

  constructor(
    list: readonly Expectation[],
    private readonly scenario: string,
    private readonly loadedAt: number,
  ) {
    this.watches = list.map((spec, i) => ({ id: spec.id ?? `expect-${i + 1}`, spec }));
  }

  get size(): number {
    return this.watches.length;
  }

  /**
   * Takes one happening, at sandbox time `now`. Checked before `after` opens, so what opens a window is not in it.
   * Answers whether an expectation moved (met, broken or opened).
   */
  observe(h: Happening, now: number, store: Store): boolean {
    let moved = false;
    for (const w of this.watches) {
      const deadline = this.deadline(w);
      if (deadline !== undefined && now > deadline) continue;
      if (!w.hit && (w.spec.after === undefined || w.opened) && this.condition(w.spec, h, store)) {
        w.hit = { at: now, what: describe(h, store) };
        moved = true;
      }
      if (w.spec.after !== undefined && !w.opened && triggerMatches(w.spec.after, h, this.scenario, store)) {
        w.opened = { at: now, what: describe(h, store) };
        moved = true;
      }
    }
    return moved;
  }

  /** How far each has got, in the list's order. */
  state(): WatchState[] {
    return this.watches.map((w) => ({
      ...(w.opened ? { opened: w.opened } : {}),
      ...(w.hit ? { hit: w.hit } : {}),
    }));
  }

  /** Back to a kept state. */
  restore(states: readonly WatchState[]): void {
    states.forEach((state, i) => {
      const w = this.watches[i];
      if (!w) return;
      if (state.opened) w.opened = state.opened;
      if (state.hit) w.hit = state.hit;
    });
  }

  report(now: number): ScenarioExpectation[] {
    return this.watches.map((w) => ({ id: w.id, ...judge(w, this.deadline(w), now) }));
  }

  private deadline(w: Watch): number | undefined {
    const { by, within } = w.spec;
    const absolute = by !== undefined ? momentOf(by, this.loadedAt) : undefined;
    const relative = within !== undefined && w.opened ? later(w.opened.at, durationMs(within)) : undefined;
    if (absolute === undefined) return relative;
    return relative === undefined ? absolute : Math.min(absolute, relative);
  }

  private condition(e: Expectation, h: Happening, store: Store): boolean {
    if (e.request) return requestMatches(e.request, h);
    if (e.noRequest) return requestMatches(e.noRequest, h);
    if (e.delivery) return deliveryMatches(e.delivery, h, '2xx');
    if (e.noDelivery) return deliveryMatches(e.noDelivery, h, undefined);
    if (e.contract) {
      const reached = contractStatusOf(h);
      if (!reached || reached.status !== e.contract.status) return false;
      if (e.contract.key !== undefined && e.contract.key !== reached.contractKey) return false;
      const name = store.contracts.get(reached.contractKey)?.name ?? '';
      return e.contract.name === undefined || globMatches(e.contract.name, name);
    }
    return false;
  }
}

function judge(w: Watch, deadline: number | undefined, now: number): Omit<ScenarioExpectation, 'id'> {
  const negative = w.spec.noRequest !== undefined || w.spec.noDelivery !== undefined;
  const hit = w.hit && `${w.hit.what} at ${isoTime(w.hit.at)}`;
  const waiting = w.spec.after !== undefined && !w.opened ? `${triggerText(w.spec.after)} has not happened` : undefined;
  const by = deadline !== undefined ? ` (deadline ${isoTime(deadline)})` : '';
  const passed = deadline !== undefined && now > deadline;
  if (negative) {
    if (hit) return { status: 'failed', evidence: hit };
    if (passed) return { status: 'met', evidence: `none by the deadline ${isoTime(deadline)}` };
    if (deadline === undefined) return { status: 'met', evidence: waiting ?? 'none so far' };
    return { status: 'pending', evidence: `${waiting ?? 'none so far'}${by}` };
  }
  if (hit) return { status: 'met', evidence: hit };
  if (passed)
    return {
      status: 'failed',
      evidence: `deadline ${isoTime(deadline)} passed: ${waiting ?? `nothing matching${w.opened ? ` after ${w.opened.what}` : ''}`}`,
    };
  return { status: 'pending', evidence: `${waiting ?? 'nothing matching yet'}${by}` };
}

/**
 * Triggered steps (docs/scenarios.md, "Reactions"): a timeline step with `when:` runs each time what it waits for
 * happens (up to `times`), at once or `after` a delay.
 *
 * Order (docs/scenarios.md, "Order"): the scenarios hear every event before anything else on the bus does; a
 * reaction without delay runs in a microtask queued then, so right after the operation that emitted the event
 * has finished and before that operation's webhook deliveries (they wait for the end of the instant) and any
 * clock timer due at the same instant. Reactions run in the order their triggers happened; for one trigger, in
 * scenario load order, then file order. A delayed reaction is a clock timer ranked with the timeline steps
 * (TIMER_RANK.scenarioStep, then load order, then file order).
 */
import { durationMs, later, TIMER_RANK } from '../core/clock.js';
import { isoTime } from '../core/time-format.js';
import type { Services } from '../store/services.js';
import type { ActiveScenario } from './active.js';
import { type Happening, describe, triggerMatches } from './happenings.js';
import type { TimelineStep } from './schema.js';
import { stepId } from './timeline.js';

/** Reactions that trigger reactions stop here: a scenario whose reactions feed each other would never end. */
const CHAIN_LIMIT = 1000;

export type RunReaction = (active: ActiveScenario, step: TimelineStep, index: number, reason: string) => void;

export class Reactions {
  /** Reactions run since the event loop last turned: CHAIN_LIMIT caps it. */
  private chain = 0;

  constructor(
    private readonly services: Services,
    private readonly run: RunReaction,
    private readonly isActive: (active: ActiveScenario) => boolean,
  ) {}

  /** One scenario hears a happening at `now`: its matching triggered steps run right after it, or are scheduled. */
  hear(active: ActiveScenario, h: Happening, now: number): void {
    const steps = active.scenario.timeline ?? [];
    for (let index = 0; index < steps.length; index++) {
      const step = steps[index]!;
      if (step.when === undefined || !triggerMatches(step.when, h, active.name, this.services.store)) continue;
      const fired = active.fired.get(index) ?? 0;
      const times = step.times ?? 1;
      if (times !== 'every' && fired >= times) continue;
      active.fired.set(index, fired + 1);
      const reason = describe(h, this.services.store);
      const delay = step.after !== undefined ? durationMs(step.after) : 0;
      const cause = active.cause(stepId(step, index));
      if (delay === 0) {
        // A microtask queued now runs once the operation that emitted the event has finished, before anything
        // queued after it: the event's webhook deliveries, later events' reactions, the clock's next timer.
        void active.clock.work.track(Promise.resolve().then(() => this.runNow(active, step, index, reason)));
        continue;
      }
      const at = later(now, delay);
      active.schedule(at, () => this.run(active, step, index, reason), cause, [
        ...TIMER_RANK.scenarioStep,
        active.loadSeq,
        index,
      ]);
      active.record(cause, `reacting to ${reason}: runs at ${isoTime(at)}`, 'scheduled');
    }
  }

  private runNow(active: ActiveScenario, step: TimelineStep, index: number, reason: string): void {
    if (!this.isActive(active)) return;
    if (this.chain === 0) setImmediate(() => (this.chain = 0));
    if (++this.chain > CHAIN_LIMIT) {
      if (this.chain === CHAIN_LIMIT + 1)
        active.record(
          active.cause(stepId(step, index)),
          `reacting to ${reason}`,
          'failed',
          `more than ${CHAIN_LIMIT} reactions triggered each other at once; the rest were dropped`,
        );
      return;
    }
    this.run(active, step, index, reason);
  }
}

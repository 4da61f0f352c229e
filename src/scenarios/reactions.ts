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
import { durationMs } from '../core/duration.js';
import { later } from '../core/time-range.js';
import { TIMER_RANK } from '../core/timer-order.js';
import { pause } from '../core/pause.js';
import { isoTime } from '../core/time-format.js';
import type { Services } from '../store/services.js';
import type { ActiveScenario } from './active.js';
import { type Happening, describe, triggerMatches } from './happenings.js';
import type { TimelineStep } from './schema.js';
import type { ReactionChain } from './reaction-chain.js';
import { stepId } from './timeline.js';

/**
 * The reactions one thing sets off, directly or through others, stop here: scenarios whose reactions feed each other
 * would never end, at once or a delay at a time (a periodic step over a 100-year advance ran 876,600 times; two
 * reactions to each send, each sending, double at each turn). Reactions that only share an instant (1,200
 * signatures in one advance, each with its reaction) are 1,200 chains and all run.
 */
const CHAIN_LIMIT = 1000;

/** How many reactions of a chain run at once before it gives the event loop a turn (docs/scenarios.md, "Reactions"). */
const TURN_EVERY = 32;

export type RunReaction = (active: ActiveScenario, step: TimelineStep, index: number, reason: string) => void;

export class Reactions {
  constructor(
    private readonly services: Services,
    private readonly chain: ReactionChain,
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
      const reason = describe(h, this.services.store);
      const cause = active.cause(stepId(step, index));
      const chain = this.chain.join(CHAIN_LIMIT);
      if (chain === undefined) {
        active.record(
          cause,
          `reacting to ${reason}`,
          'failed',
          `more than ${CHAIN_LIMIT} reactions set off by one thing, each caused by another; this one was dropped`,
        );
        continue;
      }
      active.fired.set(index, fired + 1);
      active.changed();
      const delay = step.after !== undefined ? durationMs(step.after) : 0;
      if (delay === 0) {
        const run = this.chain.carry(() => {
          if (this.isActive(active)) this.run(active, step, index, reason);
        }, chain);
        // A microtask queued now runs once the operation that emitted the event has finished, before anything
        // queued after it: the event's webhook deliveries, later events' reactions, the clock's next timer. Every
        // TURN_EVERY reactions of a chain wait a turn of the event loop instead, so a chain that feeds itself at
        // once lets other requests be answered meanwhile (1,000 reactions held the loop ~0.3-1.2 s).
        const wait = chain.reactions % TURN_EVERY === 0 ? pause() : Promise.resolve();
        void active.clock.work.track(wait.then(run));
        continue;
      }
      const at = later(now, delay);
      // A kept timer (it survives a restart), run within this reaction's chain.
      this.chain.carry(
        () => active.schedule(at, { do: 'react', index, reason }, [...TIMER_RANK.scenarioStep, active.loadSeq, index]),
        chain,
      )();
      active.record(cause, `reacting to ${reason}: runs at ${isoTime(at)}`, 'scheduled');
    }
  }
}

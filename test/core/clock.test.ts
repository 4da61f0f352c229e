/**
 * The clock's same-instant order (docs/scenarios.md, "Order"): what waits for the end of an instant
 * (`atInstantEnd`, how webhook deliveries leave) runs after everything else due at that instant, and never after
 * the clock has moved on.
 */
import { describe, expect, it } from 'vitest';
import { Clock } from '../../src/core/clock.js';
import { TIMER_RANK } from '../../src/core/timer-order.js';

const T = Date.parse('2026-03-01T09:00:00.000Z');
const at = (clock: Clock) => new Date(clock.now()).toISOString().slice(11, 19);

describe('the end of an instant', () => {
  it('comes after every timer due at that instant, whatever its rank and whenever it was set', async () => {
    const clock = new Clock({ mode: 'frozen', start: T });
    const ran: string[] = [];
    const due = T + 60_000;
    clock.schedule(due, () => ran.push('sandbox timer'), 'sandbox', undefined, TIMER_RANK.sandbox);
    clock.schedule(
      due,
      () => {
        ran.push('recipient act');
        clock.atInstantEnd(() => ran.push(`delivery at ${at(clock)}`), 'delivery');
      },
      'act',
      undefined,
      TIMER_RANK.recipientAct,
    );
    clock.schedule(due, () => ran.push('scenario step'), 'step', undefined, TIMER_RANK.scenarioStep);
    clock.schedule(due + 1, () => ran.push('next instant'), 'later', undefined, TIMER_RANK.recipientAct);
    await clock.advance(120_000);
    expect(ran).toEqual(['recipient act', 'scenario step', 'sandbox timer', 'delivery at 09:01:00', 'next instant']);
    clock.close();
  });

  it('outside an advance: after the operation in hand and its microtasks, or before the clock next moves', async () => {
    const clock = new Clock({ mode: 'frozen', start: T });
    const ran: string[] = [];
    clock.atInstantEnd(() => ran.push(`delivery at ${at(clock)}`), 'delivery');
    void Promise.resolve().then(() => ran.push('reaction'));
    ran.push('operation');
    // The clock moves before a turn of the event loop has passed: the delivery still belongs to 09:00.
    await clock.advance(3_600_000);
    expect(ran).toEqual(['operation', 'reaction', 'delivery at 09:00:00']);

    clock.atInstantEnd(() => ran.push(`second at ${at(clock)}`), 'delivery');
    await clock.work.settled();
    expect(ran.at(-1)).toBe('second at 10:00:00');
    clock.close();
  });

  it('before a jump back in time', async () => {
    const clock = new Clock({ mode: 'frozen', start: T });
    const ran: string[] = [];
    clock.atInstantEnd(() => ran.push(`delivery at ${at(clock)}`), 'delivery');
    await clock.set(T - 3_600_000);
    expect(ran).toEqual(['delivery at 09:00:00']);
    expect(at(clock)).toBe('08:00:00');
    clock.close();
  });

  it('waits, before a jump forward or back, for work already in flight (an attempt under way), even with a timer due on the way', async () => {
    for (const move of [
      (c: Clock) => c.advance(3_600_000),
      (c: Clock) => c.set(T + 3_600_000),
      (c: Clock) => c.set(T - 1),
    ]) {
      const clock = new Clock({ mode: 'frozen', start: T });
      const ran: string[] = [];
      clock.schedule(T + 60_000, () => ran.push(`timer at ${at(clock)}`), 'step');
      let answer!: () => void;
      const attempt = new Promise<void>((resolve) => (answer = resolve)).then(() =>
        ran.push(`attempt ends at ${at(clock)}`),
      );
      void clock.work.track(attempt);
      const moved = move(clock);
      await new Promise((resolve) => setImmediate(resolve));
      ran.push('receiver answers');
      answer();
      await moved;
      expect(ran.slice(0, 2)).toEqual(['receiver answers', 'attempt ends at 09:00:00']);
      clock.close();
    }
  });
});

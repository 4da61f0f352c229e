import { describe, expect, it } from 'vitest';
import { turnShare } from '../../src/core/turn-share.js';

/** Runs `takers` loops that each take 1 unit `times` times; answers what happened, `|` marking each turn. */
async function share(perTurn: number, takers: number, times: number): Promise<string[]> {
  const turns = turnShare(perTurn);
  const events: string[] = [];
  let running = true;
  const tick = () => {
    events.push('|');
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  await Promise.all(
    Array.from({ length: takers }, async (_, taker) => {
      for (let i = 0; i < times; i++) {
        await turns.take(1);
        events.push(String(taker));
      }
    }),
  );
  running = false;
  return events;
}

describe('a share of each turn of the event loop', () => {
  it('lets takes through at once while the share lasts, and the next one in a later turn', async () => {
    const events = await share(3, 1, 4);
    expect(events.join('')).toMatch(/^000\|+0/);
  });

  it('holds many takers together to the share in every turn, and each of them gets through', async () => {
    const events = await share(4, 10, 5);
    const perTurn = events.join('').split(/\|+/);
    expect(Math.max(...perTurn.map((t) => t.length))).toBe(4);
    expect(perTurn.join('').length).toBe(50);
    for (let taker = 0; taker < 10; taker++) expect(events.filter((e) => e === String(taker))).toHaveLength(5);
  });

  it('serves the takers in turn: none takes a second unit before every one has had its first', async () => {
    const events = (await share(4, 10, 3)).filter((e) => e !== '|');
    expect(new Set(events.slice(0, 10)).size).toBe(10);
  });
});

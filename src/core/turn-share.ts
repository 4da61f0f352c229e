/**
 * A share of each turn of the event loop for work that comes in pieces from many requests at once (uploads parsed
 * as they stream, http/upload.ts): together they take at most `perTurn` units (bytes) between two turns, and a
 * piece past that waits for a later turn, so timers, other requests and webhook deliveries are served in between
 * however many uploads run. A turn per piece and upload let a turn's work grow with the number of uploads: 50 uploads
 * of 5 MB at once parsed, copied and hashed 50 pieces of 64 KB (3 MB) in one turn. The figure: http/upload.ts and
 * docs/benchmarks.md.
 */
export interface TurnShare {
  /** Resolves once `units` more fit in the share: at once while this turn's share lasts, else in a later turn. */
  take(units: number): Promise<void>;
}

export function turnShare(perTurn: number): TurnShare {
  // What was taken since the share was last renewed; it is renewed by a turn that someone waited for.
  let used = 0;
  let waiting: (() => void)[] = [];
  const nextTurn = () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      if (waiting.length > 1) return;
      setImmediate(() => {
        used = 0;
        const ready = waiting;
        waiting = [];
        for (const go of ready) go();
      });
    });
  return {
    async take(units) {
      while (used >= perTurn) await nextTurn();
      used += units;
    },
  };
}

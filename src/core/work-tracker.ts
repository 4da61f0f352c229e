/**
 * The async work in flight that a clock waits for (webhook attempts, timer callbacks, reactions): an advance answers,
 * and the clock jumps, only once it has settled (core/clock.ts).
 */
export class WorkTracker {
  private readonly inFlight = new Set<Promise<unknown>>();

  track<T>(work: Promise<T>): Promise<T> {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.inFlight.add(settled);
    void settled.then(() => this.inFlight.delete(settled));
    return work;
  }

  get size(): number {
    return this.inFlight.size;
  }

  /** Resolves once nothing tracked is in flight, including work started while waiting. */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) {
      await Promise.all([...this.inFlight]);
    }
  }
}

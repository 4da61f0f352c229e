/**
 * The chain of reactions (docs/scenarios.md, "Reactions"): reactions caused by reactions are counted, so that a
 * scenario whose reactions feed each other stops (reactions.ts CHAIN_LIMIT).
 */

/**
 * How many reactions led to what runs now: 0 outside any reaction, n while a reaction that n - 1 reactions led to
 * runs. Whatever a scenario plans while one runs (a delayed reaction, a rule's act) carries its depth along, so
 * what that sets off later still counts as part of the chain.
 */
export class ReactionChain {
  depth = 0;

  /** `fn`, to run later at `depth` (default: the depth now). */
  carry(fn: () => void, depth = this.depth): () => void {
    return () => {
      const outer = this.depth;
      this.depth = depth;
      try {
        fn();
      } finally {
        this.depth = outer;
      }
    };
  }
}

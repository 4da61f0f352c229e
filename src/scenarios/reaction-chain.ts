/**
 * Chains of reactions (docs/scenarios.md, "Reactions"): every reaction one thing set off, directly or through the
 * reactions it set off in turn (at once, a delay later, through a rule's act), belongs to one chain, and the chain
 * counts them, so that scenarios whose reactions feed each other stop (reactions.ts CHAIN_LIMIT), whether they feed
 * each other in a line (a periodic step) or branch (two reactions to each send, each sending again: 2, 4, 8, … at
 * each turn, where a count of the longest line alone let 2^1000 run).
 */

/** One chain: how many reactions it holds so far. Plain JSON, so a kept timer carries it (the count of then). */
export interface Chain {
  reactions: number;
}

export class ReactionChain {
  /** The chain of what runs now; undefined outside any reaction. */
  current: Chain | undefined;

  /** `fn`, to run later within `chain` (default: the chain of now). */
  carry(fn: () => void, chain = this.current): () => void {
    return () => {
      const outer = this.current;
      this.current = chain;
      try {
        fn();
      } finally {
        this.current = outer;
      }
    };
  }

  /**
   * The chain a reaction about to be made joins, with it counted: the chain of now (the engine starts one for each
   * thing that happens outside any reaction). Undefined when that chain already holds `limit` reactions.
   */
  join(limit: number): Chain | undefined {
    const chain = this.current ?? { reactions: 0 };
    if (chain.reactions >= limit) return undefined;
    chain.reactions++;
    return chain;
  }
}

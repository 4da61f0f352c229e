/**
 * The faults of one kind (API faults, receiver faults): each in its tenant's id space (id-space.ts), with its own
 * random source and its seen/hits counts, kept across a restart (docs/persistence.md, "What is kept"). A fault is
 * kept as what it was set with plus how far it has counted and drawn, so after a restart on a data file it goes on
 * hitting exactly the requests or deliveries an uninterrupted run would have hit.
 */
import { ApiError, quote } from './errors.js';
import { faultRandom } from './ids.js';
import { IdSpaces } from './id-space.js';
import { KEEP_NOTHING, type Keeper, type KeptState } from './kept.js';

/** One fault as it is kept: plain JSON. */
export interface KeptFault<S> {
  id: string;
  /** `control`, or `scenario:<name>` for a scenario's. */
  source: string;
  /** The tenant it was set for: it touches only that platform's traffic. */
  platformId?: string | undefined;
  spec: S;
  /** Its random source's seed, and how many numbers it has drawn. */
  seed: number;
  draws: number;
  /** Matching requests or deliveries seen / hit. */
  seen: number;
  hits: number;
  /** Sandbox epoch ms at which it ends by itself. */
  until?: number;
  /** The order faults were set in: the first that matches decides. */
  n: number;
}

export interface Fault<S> extends KeptFault<S> {
  /** The next number of its own random source (counted in `draws`). */
  random(): number;
}

export interface FaultSetOptions<S> {
  /** The kept collection's name. */
  name: string;
  /** Made-up ids: `<prefix><n>`. */
  prefix: string;
  /** How a refusal names one: `A fault`. */
  noun: string;
  kept?: KeptState | undefined;
  /** After a fault is removed. */
  removed?(fault: Fault<S>): void;
  /** After a kept fault is back, on a start or a snapshot restored. */
  restored?(fault: Fault<S>): void;
}

export class FaultSet<S extends { id?: string | undefined }> {
  private readonly active: Fault<S>[] = [];
  private readonly ids = new IdSpaces();
  private readonly keeper: Keeper;
  private n = 0;

  constructor(private readonly options: FaultSetOptions<S>) {
    const restoring: Fault<S>[] = [];
    this.keeper = (options.kept ?? KEEP_NOTHING).keep(options.name, {
      record: (key) => {
        const fault = this.active.find((f) => keyOf(f) === key);
        return fault && keptForm(fault);
      },
      keys: () => this.active.map(keyOf),
      restore: (_key, record) => restoring.push(withRandom(record as KeptFault<S>)),
      restored: () => {
        for (const fault of restoring.splice(0).sort((a, b) => a.n - b.n)) {
          this.n = Math.max(this.n, fault.n);
          this.ids.skip(this.options.prefix, fault.platformId, fault.id);
          this.active.push(fault);
          this.options.restored?.(fault);
        }
      },
      clear: () => this.clear(),
    });
  }

  /** Every fault, in the order they were set. */
  get all(): readonly Fault<S>[] {
    return this.active;
  }

  /** Adds a fault (409 when its id is taken in its tenant's space); answers it. */
  add(spec: S, source: string, seed: number, platformId: string | undefined, until?: number): Fault<S> {
    const taken = (id: string) => this.active.some((f) => f.id === id && f.platformId === platformId);
    const id = spec.id ?? this.ids.next(this.options.prefix, platformId, taken);
    if (taken(id))
      throw ApiError.conflict(
        `${this.options.noun} with id ${quote(id)} is already set; remove it first or pick another id`,
      );
    const fault = withRandom<S>({
      id,
      source,
      ...(platformId !== undefined ? { platformId } : {}),
      spec,
      seed,
      draws: 0,
      seen: 0,
      hits: 0,
      ...(until !== undefined ? { until } : {}),
      n: ++this.n,
    });
    this.active.push(fault);
    this.changed(fault);
    return fault;
  }

  /** Removes one fault of this tenant's ids (`platformId`), or of the sandbox's own. */
  remove(id: string, platformId?: string): boolean {
    const i = this.active.findIndex((f) => f.id === id && f.platformId === platformId);
    if (i < 0) return false;
    const [fault] = this.active.splice(i, 1);
    this.changed(fault!);
    this.options.removed?.(fault!);
    return true;
  }

  /** Removes every fault, or those of one source, or of one tenant. Answers how many went. */
  clear(source?: string, platformId?: string): number {
    const gone = this.active.filter(
      (f) => (source === undefined || f.source === source) && (platformId === undefined || f.platformId === platformId),
    );
    for (const f of gone) this.remove(f.id, f.platformId);
    return gone.length;
  }

  /** A fault's counts changed (seen, hits, draws): it is written with the next flush. */
  changed(fault: Fault<S>): void {
    this.keeper.changed(keyOf(fault));
  }

  get size(): number {
    return this.active.length;
  }
}

function keyOf(fault: KeptFault<unknown>): string {
  return `${fault.platformId ?? ''} ${fault.id}`;
}

function keptForm<S>(fault: Fault<S>): KeptFault<S> {
  const { random: _random, ...kept } = fault;
  return kept;
}

/** The fault with its random source, advanced past the numbers it has drawn already. */
function withRandom<S>(kept: KeptFault<S>): Fault<S> {
  const next = faultRandom(kept.seed, kept.id);
  for (let i = 0; i < kept.draws; i++) next();
  const fault: Fault<S> = {
    ...kept,
    random() {
      fault.draws++;
      return next();
    },
  };
  return fault;
}

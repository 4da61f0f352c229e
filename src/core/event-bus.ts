/**
 * A small synchronous, typed event bus. Listeners run in subscription order when an event is emitted; a
 * listener that throws is reported and does not stop the others (a broken subscriber must never fail the
 * request that emitted the event). Listeners that start async work hand it to the clock's WorkTracker.
 */
import type { BusEvent, ContractEvent, InternalEvent } from './events.js';
import type { ContractEventType } from './vocabulary.js';
import { getOrAdd } from './maps.js';

type Listener<E> = (event: E) => void;
// ContractEvent's `type` is a union, so Extract<BusEvent, {type: 'contract.signed'}> would be never: narrow it by hand.
type EventOfType<T extends BusEvent['type']> = T extends ContractEventType
  ? ContractEvent & { type: T }
  : Extract<InternalEvent, { type: T }>;

export class EventBus {
  private readonly listeners = new Map<string, Set<Listener<BusEvent>>>();
  private readonly anyListeners = new Set<Listener<BusEvent>>();
  private readonly firstListeners = new Set<Listener<BusEvent>>();

  on<T extends BusEvent['type']>(type: T, listener: Listener<EventOfType<T>>): () => void {
    const set = getOrAdd(this.listeners, type, () => new Set());
    set.add(listener as Listener<BusEvent>);
    return () => set.delete(listener as Listener<BusEvent>);
  }

  onAny(listener: Listener<BusEvent>): () => void {
    this.anyListeners.add(listener);
    return () => this.anyListeners.delete(listener);
  }

  /**
   * Hears every event before the listeners above: scenario reactions are planned here, so a reaction to an event
   * is in place before that event's webhook deliveries go out (docs/scenarios.md, "Order").
   */
  onAnyFirst(listener: Listener<BusEvent>): () => void {
    this.firstListeners.add(listener);
    return () => this.firstListeners.delete(listener);
  }

  private muted = 0;

  /** Runs `fn` with emits dropped: seeding fixtures must not fire webhooks or emails. */
  muteWhile<T>(fn: () => T): T {
    this.muted++;
    try {
      return fn();
    } finally {
      this.muted--;
    }
  }

  emit(event: BusEvent): void {
    if (this.muted > 0) return;
    for (const listener of this.firstListeners) this.call(listener, event);
    for (const listener of this.listeners.get(event.type) ?? []) this.call(listener, event);
    for (const listener of this.anyListeners) this.call(listener, event);
  }

  private call(listener: Listener<BusEvent>, event: BusEvent): void {
    try {
      listener(event);
    } catch (error) {
      process.emitWarning(`esign-sandbox: a listener for ${event.type} failed: ${String(error)}`);
    }
  }
}

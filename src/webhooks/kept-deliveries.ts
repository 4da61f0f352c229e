/**
 * The delivery log as kept across a restart (core/kept.ts, docs/persistence.md "What is kept"), in two collections:
 * `webhook-messages`, each message's body once, by its `webhook-id`; and `deliveries`, each delivery without its
 * body, naming its message by that id. A delivery is written at least twice (pending, then attempted, in different
 * flush windows) and one event may go to several endpoints: with the body in each delivery record, bodies were over
 * half of what a webhook fan-out with `--data` wrote (docs/benchmarks.md, the fan-out row). A message is kept while a
 * delivery of the log names it.
 */
import type { Keeper, KeptState } from '../core/kept.js';
import type { Delivery } from './delivery.js';

/** A delivery as kept: all of it but its body (its message's) and what only the running process knows. */
type KeptDelivery = Omit<Delivery, 'inFlight' | 'removed' | 'body'> & {
  /** Only in data files and snapshots written before the bodies were kept apart. */
  body?: string;
};

interface Message {
  body: string;
  /** Deliveries of the log that name it. */
  refs: number;
}

export class KeptDeliveries {
  private readonly messages = new Map<string, Message>();
  private readonly bodies: Keeper;
  private readonly records: Keeper;

  /** `restored`: every kept delivery is back in `log`, oldest first. Messages register first: they come back first. */
  constructor(store: KeptState, log: Map<string, Delivery>, restored: () => void) {
    this.bodies = store.keep('webhook-messages', {
      record: (id) => {
        const message = this.messages.get(id);
        return message && { body: message.body };
      },
      keys: () => this.messages.keys(),
      restore: (id, record) => this.messages.set(id, { body: (record as { body: string }).body, refs: 0 }),
      clear: () => this.messages.clear(),
    });
    this.records = store.keep('deliveries', {
      record: (id) => {
        const d = log.get(id);
        return d && keptRecord(d);
      },
      keys: () => log.keys(),
      restore: (id, record) => {
        const { body: inRecord, ...kept } = record as KeptDelivery;
        const body = this.messages.get(kept.webhookId)?.body ?? inRecord;
        // Neither its message nor a body of its own: a file edited by hand; there is nothing to send.
        if (body === undefined) return;
        const d: Delivery = { ...kept, body, inFlight: 0, removed: false };
        log.set(id, d);
        this.hold(d);
      },
      restored: () => {
        for (const [id, message] of this.messages) if (message.refs === 0) this.drop(id);
        restored();
      },
      clear: () => {
        for (const d of log.values()) d.removed = true;
        log.clear();
      },
    });
  }

  /** A new delivery in the log: its message is kept with it, once for all the deliveries of one event. */
  added(d: Delivery): void {
    this.hold(d);
    this.records.changed(d.id);
  }

  changed(d: Delivery): void {
    this.records.changed(d.id);
  }

  /** Out of the log: its message goes with the last delivery that named it. */
  removed(d: Delivery): void {
    this.records.changed(d.id);
    const message = this.messages.get(d.webhookId);
    if (message && --message.refs <= 0) this.drop(d.webhookId);
  }

  private drop(id: string): void {
    this.messages.delete(id);
    this.bodies.changed(id);
  }

  private hold(d: Delivery): void {
    const message = this.messages.get(d.webhookId);
    if (message) {
      message.refs++;
      return;
    }
    this.messages.set(d.webhookId, { body: d.body, refs: 1 });
    this.bodies.changed(d.webhookId);
  }
}

/**
 * A delivery's kept record, field by field: a rest spread (`{ inFlight, removed, body, ...kept }`) took 2 µs a
 * record on Node 20 against 0.1 µs, written once or twice per delivery with --data. Every field of KeptDelivery
 * must be named here (the type says so); one left undefined is left out of the JSON, as the spread left it out.
 */
function keptRecord(d: Delivery): KeptDelivery {
  const kept: { [K in keyof Required<KeptDelivery>]: KeptDelivery[K] | undefined } = {
    id: d.id,
    webhookId: d.webhookId,
    webhookKey: d.webhookKey,
    url: d.url,
    platformId: d.platformId,
    clientKey: d.clientKey,
    contractKey: d.contractKey,
    event: d.event,
    cause: d.cause,
    trace: d.trace,
    body: undefined,
    createdAt: d.createdAt,
    status: d.status,
    attempts: d.attempts,
    retries: d.retries,
    active: d.active,
    nextAttemptAt: d.nextAttemptAt,
    stopped: d.stopped,
    held: d.held,
    releasedHit: d.releasedHit,
  };
  return kept as KeptDelivery;
}

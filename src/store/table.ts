/**
 * A collection of records keyed by one field, with secondary indexes kept in memory so that
 * "contracts of client X" costs the size of the answer, not the size of the store.
 * Records are stored by reference in the lowdb data object; change them only through `update`.
 */
type IndexFn<T> = (record: T) => string | undefined;
/** Index value → the records holding it, by key, in insertion order. Records by reference: `where` reads no dictionary. */
type Index<T> = { fn: IndexFn<T>; map: Map<string, Map<string, T>> };

/** Records per joined block: small enough that one change rebuilds little, large enough that a list copies few. */
const JOIN_BLOCK = 256;
type JoinedBlock = { rows: Uint8Array[]; bytes: Uint8Array };

export class Table<T extends object> {
  private readonly indexes = new Map<string, Index<T>>();
  /**
   * Values derived from a record (e.g. its list-row JSON), dropped whenever the record changes. Each name gets a
   * symbol, and the value sits on the record under it, non-enumerable, so JSON (the data file, snapshots) and
   * spreads never see it. Not a WeakMap: 100,000 ephemeron entries made every old-generation collection, and so
   * the p99 of a long list, grow with the store; a property read is also the cheapest lookup there is.
   */
  private readonly slots = new Map<string, symbol>();
  /** Joined blocks of derived values by name, each keyed by its first value (see `joinedWhere`). */
  private readonly joins = new Map<string, WeakMap<Uint8Array, JoinedBlock>>();
  /** Derived values computed as soon as a record is inserted (see `precompute`). */
  private readonly precomputed = new Map<string, (record: T) => unknown>();
  /** Kept by hand: counting the keys of a 100,000-record object on every health check is not free. */
  private count = 0;

  constructor(
    private rows: Record<string, T>,
    private readonly keyOf: (record: T) => string,
    indexes: Record<string, IndexFn<T>>,
    /** Told the key of every record inserted, updated or deleted (the store journals them). */
    private readonly onChange: (key: string) => void,
  ) {
    for (const [name, fn] of Object.entries(indexes)) this.indexes.set(name, { fn, map: new Map() });
    this.rebuild(rows);
  }

  /** Points the table at a new backing object (after load, reset or restore). */
  rebuild(rows: Record<string, T>): void {
    this.rows = rows;
    this.count = Object.keys(rows).length;
    for (const index of this.indexes.values()) {
      index.map.clear();
      for (const [key, row] of Object.entries(rows)) this.addToIndex(index, key, row);
    }
  }

  get(key: string): T | undefined {
    return Object.hasOwn(this.rows, key) ? this.rows[key] : undefined;
  }

  has(key: string): boolean {
    return Object.hasOwn(this.rows, key);
  }

  get size(): number {
    return this.count;
  }

  all(): T[] {
    return Object.values(this.rows);
  }

  /** Records whose index `name` equals `value`, in insertion order. */
  where(name: string, value: string): T[] {
    const records = this.index(name).map.get(value);
    return records ? Array.from(records.values()) : [];
  }

  /**
   * A value derived from `record`, computed once and reused until the record is updated or deleted. Long
   * lists use it (through `joinedWhere`) so that listing 100,000 contracts copies cached bytes instead of
   * building and collecting 100,000 objects.
   */
  derived<V>(record: T, name: string, compute: (record: T) => V): V {
    const slot = this.slot(name);
    const holder = record as Record<symbol, V | undefined>;
    const cached = holder[slot];
    if (cached !== undefined) return cached;
    const value = compute(record);
    if (Object.hasOwn(record, slot)) holder[slot] = value;
    else Object.defineProperty(record, slot, { value, writable: true, configurable: true, enumerable: false });
    return value;
  }

  /**
   * The values derived under `name` (UTF-8 bytes, e.g. list-row JSON) of the records `where(index, value)`
   * finds, in the same order, joined with `separator` in blocks of JOIN_BLOCK records. A block is kept and
   * reused for as long as it is made of the same derived values (a record's value is replaced when it
   * changes), so a list of 100,000 records hands on ~400 blocks rather than 100,000 rows, and a change
   * rebuilds only the block around it. Callers join the blocks with the same separator.
   */
  joinedWhere(index: string, value: string, name: string, compute: (record: T) => Uint8Array, separator: number): Uint8Array[] {
    const records = this.index(index).map.get(value);
    if (!records) return [];
    let cache = this.joins.get(name);
    if (!cache) this.joins.set(name, (cache = new WeakMap()));
    const blocks: Uint8Array[] = [];
    // While a block's rows match the cached block that starts with its first row, only `hit` and a count are
    // kept: an unchanged list of 100,000 builds no row arrays (they were most of what a list allocated, and
    // allocation is what makes a list pay for the collector's marking steps). On the first row that differs,
    // the rows so far are copied out of the cached block and the block is built anew.
    let hit: JoinedBlock | undefined;
    let rows: Uint8Array[] | undefined;
    let n = 0;
    const close = () => {
      blocks.push(rows === undefined && hit!.rows.length === n ? hit!.bytes : joinBlock(cache, rows ?? hit!.rows.slice(0, n), separator));
      n = 0;
    };
    // forEach, not for-of: the iterator's result objects were 3.6 MB a list of 100,000 when not optimised away.
    records.forEach((record) => {
      const row = this.derived(record, name, compute);
      if (n === 0) {
        hit = cache.get(row);
        rows = undefined;
      }
      if (rows !== undefined) rows.push(row);
      else if (hit === undefined || hit.rows[n] !== row) {
        rows = hit === undefined ? [row] : [...hit.rows.slice(0, n), row];
        hit = undefined;
      }
      if (++n === JOIN_BLOCK) close();
    });
    if (n > 0) close();
    return blocks;
  }

  /**
   * Computes `derived(record, name, compute)` for each record when it is inserted, so the first long list after
   * many inserts finds its rows ready instead of building them all at once; after an update the value is
   * built again on its next read.
   */
  precompute<V>(name: string, compute: (record: T) => V): void {
    this.precomputed.set(name, compute);
  }

  countWhere(name: string, value: string): number {
    return this.index(name).map.get(value)?.size ?? 0;
  }

  insert(record: T): T {
    const key = this.keyOf(record);
    if (this.has(key)) throw new Error(`duplicate key ${key}`);
    this.rows[key] = record;
    this.count++;
    for (const index of this.indexes.values()) this.addToIndex(index, key, record);
    for (const [name, compute] of this.precomputed) this.derived(record, name, compute);
    this.onChange(key);
    return record;
  }

  update(key: string, patch: Partial<T>): T {
    const record = this.get(key);
    if (!record) throw new Error(`no record ${key}`);
    const before = new Map([...this.indexes].map(([n, i]) => [n, i.fn(record)]));
    Object.assign(record, patch);
    this.forget(record);
    for (const [name, index] of this.indexes) {
      if (before.get(name) !== index.fn(record)) {
        this.removeFromIndex(index, key, before.get(name));
        this.addToIndex(index, key, record);
      }
    }
    this.onChange(key);
    return record;
  }

  delete(key: string): T | undefined {
    const record = this.get(key);
    if (!record) return undefined;
    delete this.rows[key];
    this.forget(record);
    this.count--;
    for (const index of this.indexes.values()) this.removeFromIndex(index, key, index.fn(record));
    this.onChange(key);
    return record;
  }

  private forget(record: T): void {
    // Cleared in place (not deleted), so every record keeps the same shape.
    for (const slot of this.slots.values()) if (Object.hasOwn(record, slot)) (record as Record<symbol, unknown>)[slot] = undefined;
  }

  private slot(name: string): symbol {
    let slot = this.slots.get(name);
    if (!slot) this.slots.set(name, (slot = Symbol(name)));
    return slot;
  }

  private index(name: string) {
    const index = this.indexes.get(name);
    if (!index) throw new Error(`no index ${name}`);
    return index;
  }

  private addToIndex(index: Index<T>, key: string, row: T): void {
    const value = index.fn(row);
    if (value === undefined) return;
    let records = index.map.get(value);
    if (!records) index.map.set(value, (records = new Map()));
    records.set(key, row);
  }

  private removeFromIndex(index: Index<T>, key: string, value: string | undefined): void {
    if (value === undefined) return;
    const records = index.map.get(value);
    records?.delete(key);
    if (records && records.size === 0) index.map.delete(value);
  }
}

/** A new block of `rows` joined with `separator`, cached under its first row. */
function joinBlock(cache: WeakMap<Uint8Array, JoinedBlock>, rows: Uint8Array[], separator: number): Uint8Array {
  let size = rows.length - 1;
  for (const row of rows) size += row.length;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (let i = 0; i < rows.length; i++) {
    if (i > 0) bytes[at++] = separator;
    bytes.set(rows[i]!, at);
    at += rows[i]!.length;
  }
  cache.set(rows[0]!, { rows, bytes });
  return bytes;
}

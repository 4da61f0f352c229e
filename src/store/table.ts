/**
 * A collection of records keyed by one field, with secondary indexes kept in memory so that
 * "contracts of client X" costs the size of the answer, not the size of the store.
 * Records are stored by reference in the lowdb data object; change them only through `update`.
 */
type IndexFn<T> = (record: T) => string | undefined;
/** Index value → the records holding it, by key, in insertion order. Records by reference: `where` reads no dictionary. */
type Index<T> = { fn: IndexFn<T>; map: Map<string, Map<string, T>> };

export class Table<T extends object> {
  private readonly indexes = new Map<string, Index<T>>();
  /**
   * Values derived from a record (e.g. its list-row JSON), dropped whenever the record changes: one WeakMap
   * per name, so a record costs one ephemeron entry per value rather than a Map of its own.
   */
  private readonly memo = new Map<string, WeakMap<T, unknown>>();
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
   * lists use it so that listing 100,000 contracts costs joining 100,000 cached strings, not building and
   * collecting 100,000 objects.
   */
  derived<V>(record: T, name: string, compute: (record: T) => V): V {
    let values = this.memo.get(name);
    if (!values) this.memo.set(name, (values = new WeakMap()));
    if (values.has(record)) return values.get(record) as V;
    const value = compute(record);
    values.set(record, value);
    return value;
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
    for (const values of this.memo.values()) values.delete(record);
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

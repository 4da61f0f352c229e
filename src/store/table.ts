/**
 * A collection of records keyed by one field, with secondary indexes kept in memory so that
 * "contracts of client X" costs the size of the answer, not the size of the store.
 * Records are stored by reference in the lowdb data object; change them only through `update`.
 */
type IndexFn<T> = (record: T) => string | undefined;

export class Table<T extends object> {
  private readonly indexes = new Map<string, { fn: IndexFn<T>; map: Map<string, Set<string>> }>();
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
    const keys = this.index(name).map.get(value);
    if (!keys) return [];
    const out: T[] = [];
    for (const key of keys) out.push(this.rows[key]!);
    return out;
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
    this.onChange(key);
    return record;
  }

  update(key: string, patch: Partial<T>): T {
    const record = this.get(key);
    if (!record) throw new Error(`no record ${key}`);
    const before = new Map([...this.indexes].map(([n, i]) => [n, i.fn(record)]));
    Object.assign(record, patch);
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
    this.count--;
    for (const index of this.indexes.values()) this.removeFromIndex(index, key, index.fn(record));
    this.onChange(key);
    return record;
  }

  private index(name: string) {
    const index = this.indexes.get(name);
    if (!index) throw new Error(`no index ${name}`);
    return index;
  }

  private addToIndex(index: { fn: IndexFn<T>; map: Map<string, Set<string>> }, key: string, row: T): void {
    const value = index.fn(row);
    if (value === undefined) return;
    let set = index.map.get(value);
    if (!set) index.map.set(value, (set = new Set()));
    set.add(key);
  }

  private removeFromIndex(
    index: { fn: IndexFn<T>; map: Map<string, Set<string>> },
    key: string,
    value: string | undefined,
  ): void {
    if (value === undefined) return;
    const set = index.map.get(value);
    set?.delete(key);
    if (set && set.size === 0) index.map.delete(value);
  }
}

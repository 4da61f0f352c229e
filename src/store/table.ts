/**
 * A collection of records keyed by one field, with secondary indexes kept in memory so that
 * "contracts of client X" costs the size of the answer, not the size of the store.
 * Records are stored by reference in the store's data object; change them only through `update`.
 */
type IndexFn<T> = (record: T) => string | undefined;
import { getOrAdd } from '../core/maps.js';
/** Index value → the records holding it, by key, in insertion order. Records by reference: `where` reads no dictionary. */
type Index<T> = { fn: IndexFn<T>; map: Map<string, Map<string, T>> };

export class Table<T extends object> {
  private readonly indexes = new Map<string, Index<T>>();
  /**
   * List rows made from records (see `listRowsWhere`), by row function and record key; a record's row is dropped when
   * the record is updated or deleted, all of them when the table is rebuilt.
   */
  private readonly listRows = new Map<(record: T) => unknown, Map<string, unknown>>();
  /** Kept by hand: counting the keys of a 100,000-record object on every health check is not free. */
  private count = 0;

  constructor(
    private rows: Record<string, T>,
    /** The record's key (its `clientKey`, `contractKey`, …): the one place each collection names its key field. */
    readonly keyOf: (record: T) => string,
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
    this.listRows.clear();
    // One list of keys for every index, not Object.entries per index: a start on 100,000 records made (and the GC
    // collected) 100,000 [key, row] pairs per index.
    const keys = Object.keys(rows);
    this.count = keys.length;
    for (const index of this.indexes.values()) {
      index.map.clear();
      for (const key of keys) this.addToIndex(index, key, rows[key]!);
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
   * `toRow(record)` for each record `where(index, value)` finds, reusing the row made earlier for a record that
   * has not changed since. The contract list keeps its rows' JSON here: building and serialising every row per
   * list put the p99 of a list of 10,000 at 36–111 ms against a 25 ms target; with the rows kept, 18–26 ms
   * in the same runs on a busy machine (docs/benchmarks.md, "Performance devices"). Rows are kept until their
   * record is updated or deleted, so callers must not change them.
   */
  listRowsWhere<V>(index: string, value: string, toRow: (record: T) => V): V[] {
    const rows = getOrAdd(this.listRows, toRow, () => new Map()) as Map<string, V>;
    const out: V[] = [];
    const records = this.index(index).map.get(value);
    if (!records) return out;
    records.forEach((record, key) => {
      out.push(getOrAdd(rows, key, () => toRow(record)));
    });
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
    this.forget(key);
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
    this.forget(key);
    this.count--;
    for (const index of this.indexes.values()) this.removeFromIndex(index, key, index.fn(record));
    this.onChange(key);
    return record;
  }

  private forget(key: string): void {
    for (const rows of this.listRows.values()) rows.delete(key);
  }

  private index(name: string) {
    const index = this.indexes.get(name);
    if (!index) throw new Error(`no index ${name}`);
    return index;
  }

  private addToIndex(index: Index<T>, key: string, row: T): void {
    const value = index.fn(row);
    if (value === undefined) return;
    getOrAdd(index.map, value, () => new Map()).set(key, row);
  }

  private removeFromIndex(index: Index<T>, key: string, value: string | undefined): void {
    if (value === undefined) return;
    const records = index.map.get(value);
    records?.delete(key);
    if (records && records.size === 0) index.map.delete(value);
  }
}

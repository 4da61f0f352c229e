import { describe, expect, it } from 'vitest';
import { Table } from '../../src/store/table.js';

interface Row {
  key: string;
  group: string;
  name: string;
}

function table() {
  const changed: string[] = [];
  const t = new Table<Row>(
    {},
    (r) => r.key,
    { group: (r) => r.group },
    (key) => changed.push(key),
  );
  return { t, changed };
}

describe('Table', () => {
  it('lists by index in insertion order and follows records that move between index values', () => {
    const { t } = table();
    t.insert({ key: 'a', group: 'x', name: 'A' });
    t.insert({ key: 'b', group: 'y', name: 'B' });
    t.insert({ key: 'c', group: 'x', name: 'C' });
    expect(t.where('group', 'x').map((r) => r.key)).toEqual(['a', 'c']);
    t.update('a', { group: 'y' });
    expect(t.where('group', 'x').map((r) => r.key)).toEqual(['c']);
    expect(t.where('group', 'y').map((r) => r.key)).toEqual(['b', 'a']);
    t.delete('c');
    expect(t.where('group', 'x')).toEqual([]);
    expect(t.size).toBe(2);
  });

  it('keeps a view of each record until the record changes', () => {
    const { t } = table();
    t.insert({ key: 'a', group: 'x', name: 'A' });
    t.insert({ key: 'b', group: 'x', name: 'B' });
    let made = 0;
    const upper = (r: Row) => (made++, r.name.toUpperCase());
    expect(t.listRowsWhere('group', 'x', upper)).toEqual(['A', 'B']);
    expect(t.listRowsWhere('group', 'x', upper)).toEqual(['A', 'B']);
    expect(made).toBe(2);
    t.update('a', { name: 'Ay' });
    t.insert({ key: 'c', group: 'x', name: 'C' });
    t.delete('b');
    expect(t.listRowsWhere('group', 'x', upper)).toEqual(['AY', 'C']);
    expect(made).toBe(4);
    expect(t.listRowsWhere('group', 'none', upper)).toEqual([]);
    expect(JSON.parse(JSON.stringify(t.get('a')))).toEqual({ key: 'a', group: 'x', name: 'Ay' });
  });

  it('tells its owner the key of every change', () => {
    const { t, changed } = table();
    t.insert({ key: 'a', group: 'x', name: 'A' });
    t.update('a', { name: 'B' });
    t.delete('a');
    expect(changed).toEqual(['a', 'a', 'a']);
  });
});

import { describe, expect, it } from 'vitest';
import { Table } from '../src/store/table.js';

interface Row {
  key: string;
  group: string;
  name: string;
}

function table() {
  const changed: string[] = [];
  const t = new Table<Row>({}, (r) => r.key, { group: (r) => r.group }, (key) => changed.push(key));
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

  it('keeps a derived value until its record changes', () => {
    const { t } = table();
    const row = t.insert({ key: 'a', group: 'x', name: 'A' });
    let computed = 0;
    const upper = (r: Row) => (computed++, r.name.toUpperCase());
    expect(t.derived(row, 'upper', upper)).toBe('A');
    expect(t.derived(row, 'upper', upper)).toBe('A');
    expect(computed).toBe(1);
    t.update('a', { name: 'Ay' });
    expect(t.derived(row, 'upper', upper)).toBe('AY');
    expect(computed).toBe(2);
  });

  it('precomputes registered values on insert, and rebuilds them on the first read after an update', () => {
    const { t } = table();
    let computed = 0;
    const upper = (r: Row) => (computed++, r.name.toUpperCase());
    t.precompute('upper', upper);
    const row = t.insert({ key: 'a', group: 'x', name: 'A' });
    expect(computed).toBe(1);
    expect(t.derived(row, 'upper', upper)).toBe('A');
    expect(computed).toBe(1);
    t.update('a', { name: 'B' });
    expect(computed).toBe(1);
    expect(t.derived(row, 'upper', upper)).toBe('B');
    expect(computed).toBe(2);
  });

  it('tells its owner the key of every change', () => {
    const { t, changed } = table();
    t.insert({ key: 'a', group: 'x', name: 'A' });
    t.update('a', { name: 'B' });
    t.delete('a');
    expect(changed).toEqual(['a', 'a', 'a']);
  });
});

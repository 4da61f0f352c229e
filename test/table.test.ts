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

  it('keeps derived values out of JSON, Object.keys and spreads', () => {
    const { t } = table();
    const row = t.insert({ key: 'a', group: 'x', name: 'A' });
    t.derived(row, 'upper', (r) => r.name.toUpperCase());
    expect(JSON.parse(JSON.stringify(row))).toEqual({ key: 'a', group: 'x', name: 'A' });
    expect(Object.keys(row)).toEqual(['key', 'group', 'name']);
    expect(Object.getOwnPropertySymbols({ ...row })).toEqual([]);
  });

  describe('joinedWhere', () => {
    const bytes = (r: Row) => Buffer.from(JSON.stringify({ key: r.key, name: r.name }));
    const decode = (blocks: Uint8Array[]) => JSON.parse(`[${blocks.map((b) => Buffer.from(b).toString()).join(',')}]`);
    function filled(n: number) {
      const { t } = table();
      for (let i = 0; i < n; i++) t.insert({ key: `k${i}`, group: i % 2 === 0 ? 'even' : 'odd', name: `N${i}` });
      return t;
    }

    it.each([0, 1, 255, 256, 257, 1000])('joins the derived rows of an index value in order (%i records)', (n) => {
      const t = filled(2 * n);
      const expected = t.where('group', 'even').map((r) => ({ key: r.key, name: r.name }));
      expect(decode(t.joinedWhere('group', 'even', 'row', bytes, 0x2c))).toEqual(expected);
    });

    it('reuses unchanged blocks and rebuilds only the block around a changed, added or deleted record', () => {
      const t = filled(1200); // 600 'even' records: blocks of 256, 256, 88
      const first = t.joinedWhere('group', 'even', 'row', bytes, 0x2c);
      expect(first).toHaveLength(3);
      expect(t.joinedWhere('group', 'even', 'row', bytes, 0x2c)).toEqual(first);
      t.update('k600', { name: 'changed' }); // the 301st 'even' record: second block
      const afterUpdate = t.joinedWhere('group', 'even', 'row', bytes, 0x2c);
      expect(afterUpdate[0]).toBe(first[0]);
      expect(afterUpdate[1]).not.toBe(first[1]);
      expect(afterUpdate[2]).toBe(first[2]);
      expect(decode(afterUpdate)[300]).toEqual({ key: 'k600', name: 'changed' });
      t.insert({ key: 'new', group: 'even', name: 'New' });
      const afterInsert = t.joinedWhere('group', 'even', 'row', bytes, 0x2c);
      expect(afterInsert.slice(0, 2)).toEqual([afterUpdate[0], afterUpdate[1]]);
      expect(decode(afterInsert).at(-1)).toEqual({ key: 'new', name: 'New' });
      t.delete('k0');
      const afterDelete = decode(t.joinedWhere('group', 'even', 'row', bytes, 0x2c));
      expect(afterDelete).toHaveLength(600);
      expect(afterDelete[0]).toEqual({ key: 'k2', name: 'N2' });
      // The last block loses its last row: its first rows still match the cached block, which is one row longer.
      t.delete('new');
      const afterTailDelete = decode(t.joinedWhere('group', 'even', 'row', bytes, 0x2c));
      expect(afterTailDelete).toHaveLength(599);
      expect(afterTailDelete.at(-1)).toEqual({ key: 'k1198', name: 'N1198' });
    });
  });

  it('tells its owner the key of every change', () => {
    const { t, changed } = table();
    t.insert({ key: 'a', group: 'x', name: 'A' });
    t.update('a', { name: 'B' });
    t.delete('a');
    expect(changed).toEqual(['a', 'a', 'a']);
  });
});

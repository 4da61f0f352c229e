/**
 * The value a map holds under a key, made and added on first use: the one spelling of "get, or make and set"
 * (per-tenant tables, dirty sets, font and glyph caches, index buckets).
 */
export function getOrAdd<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}

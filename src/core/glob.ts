/** Globs for scenario matches: `*` any run of characters, `?` one character, case-insensitive, whole string. */
export function globMatches(pattern: string, value: string): boolean {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`, 'is').test(value);
}

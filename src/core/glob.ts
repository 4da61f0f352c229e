/**
 * Globs for scenario matches and fault paths: `*` any run of characters, `?` one character, case-insensitive, the
 * whole string. Matched by walking both strings once, going back only to just after the latest `*` (each star
 * takes as little as it can, the next literal run finds its earliest place), never by a regular expression: one of
 * `.*` per star backtracks without bound, and `*a*a*a*a*a*a*a*a*a*a*b` against 35 characters took 5.8 s
 * (docs/scenarios.md, "Globs"). The work is at most the value's length times the longest run between two stars.
 */
export function globMatches(pattern: string, value: string): boolean {
  const p = pattern.toLowerCase();
  const v = value.toLowerCase();
  // Lower case once, unless that changes a length (a few letters, such as "İ", become two): then letter by letter.
  if (p.length === pattern.length && v.length === value.length) return walk(p, v, same);
  return walk(pattern, value, sameLetter);
}

function walk(pattern: string, value: string, equal: (a: string, b: string) => boolean): boolean {
  let p = 0;
  let v = 0;
  /** Where the pattern resumes after the latest star, and where in the value that star's run now ends. */
  let star = -1;
  let resume = 0;
  while (v < value.length) {
    const c = pattern[p];
    if (c === '*') {
      star = ++p;
      resume = v;
    } else if (c !== undefined && (c === '?' || equal(c, value[v]!))) {
      p++;
      v++;
    } else if (star >= 0) {
      // The run after the latest star does not fit here: that star takes one more character.
      p = star;
      v = ++resume;
    } else return false;
  }
  while (pattern[p] === '*') p++;
  return p === pattern.length;
}

function same(a: string, b: string): boolean {
  return a === b;
}

function sameLetter(a: string, b: string): boolean {
  return a === b || a.toLowerCase() === b.toLowerCase();
}

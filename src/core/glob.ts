/**
 * Globs for scenario matches and fault paths: `*` any run of characters, `?` one character (one UTF-16 unit),
 * case-insensitive, the whole string (docs/scenarios.md, "Globs").
 *
 * Matched in time linear in the value, never by a regular expression (one `.*` per star backtracks without bound:
 * `*a*a*a*a*a*a*a*a*a*a*b` against 35 characters took 5.8 s) nor by a walk that goes back after a star (a
 * 500-character run after a star against a 1 MB contract name took 8 s). The glob is cut at its stars into runs:
 * the first run must begin the value, the last must end it, and each run between takes its earliest place after
 * the one before (the earliest place never loses a match: what follows it has the most room). A run is looked for
 * in one pass over the value by shift-and, one bit per character of the run, 32 to a word: the work is the value's
 * length times ⌈run / 32⌉ words, at most 16 for the longest glob allowed (core/schemas.ts MAX_GLOB_LENGTH).
 */
export function globMatches(pattern: string, value: string): boolean {
  return matchGlob(pattern, value).matches;
}

/** Whether the glob matches, and the work it took: words of shift-and per character looked at, and characters compared. */
export function matchGlob(pattern: string, value: string): { matches: boolean; steps: number } {
  const runs = pattern.split('*');
  const first = runs[0]!;
  if (runs.length === 1)
    return { matches: value.length === first.length && fits(first, value, 0), steps: first.length };
  const last = runs[runs.length - 1]!;
  const end = value.length - last.length;
  let steps = first.length + last.length;
  if (end < first.length || !fits(first, value, 0) || !fits(last, value, end)) return { matches: false, steps };
  let from = first.length;
  for (const run of runs.slice(1, -1)) {
    if (run === '') continue;
    const found = find(run, value, from, end);
    steps += found.steps;
    if (found.at < 0) return { matches: false, steps };
    from = found.at + run.length;
  }
  return { matches: true, steps };
}

/** The run matches the value's characters from `at` on (the caller knows they are there). */
function fits(run: string, value: string, at: number): boolean {
  for (let i = 0; i < run.length; i++) {
    const c = run[i]!;
    if (c !== '?' && !sameLetter(c, value[at + i]!)) return false;
  }
  return true;
}

function sameLetter(a: string, b: string): boolean {
  return a === b || a.toLowerCase() === b.toLowerCase();
}

/**
 * Where `run` (no star) first lies wholly within value[from, to), or -1, by shift-and: bit j of the state says
 * whether the run's first j + 1 characters end at the character just read.
 */
function find(run: string, value: string, from: number, to: number): { at: number; steps: number } {
  const words = Math.ceil(run.length / 32);
  const masks = letterMasks(run, words);
  const state = new Int32Array(words);
  const top = words - 1;
  const done = 1 << ((run.length - 1) % 32);
  for (let i = from; i < to; i++) {
    const mask = masks(value.charCodeAt(i));
    let carry = 1;
    for (let w = 0; w < words; w++) {
      const before = state[w]!;
      state[w] = ((before << 1) | carry) & mask[w]!;
      carry = before >>> 31;
    }
    if ((state[top]! & done) !== 0) return { at: i - run.length + 1, steps: (i - from + 1) * words };
  }
  return { at: -1, steps: (to - from) * words };
}

/**
 * For a character of the value, the run's positions it matches (a `?`, or the same letter in any case) as bits: one
 * mask per letter of the run (lower-cased once), the `?` positions alone for any other character; which mask a
 * character reads is worked out once per distinct character.
 */
function letterMasks(run: string, words: number): (code: number) => Int32Array {
  const any = new Int32Array(words);
  for (let j = 0; j < run.length; j++) if (run[j] === '?') setBit(any, j);
  const byLetter = new Map<string, Int32Array>();
  for (let j = 0; j < run.length; j++) {
    if (run[j] === '?') continue;
    const letter = run[j]!.toLowerCase();
    if (!byLetter.has(letter)) byLetter.set(letter, Int32Array.from(any));
    setBit(byLetter.get(letter)!, j);
  }
  const maskOf = (code: number) => byLetter.get(String.fromCharCode(code).toLowerCase()) ?? any;
  // Most values are ASCII: their masks in an array, the rest looked up once each.
  const ascii = Array.from({ length: 128 }, (_, code) => maskOf(code));
  const seen = new Map<number, Int32Array>();
  return (code) => {
    if (code < 128) return ascii[code]!;
    if (!seen.has(code)) seen.set(code, maskOf(code));
    return seen.get(code)!;
  };
}

function setBit(bits: Int32Array, j: number): void {
  bits[j >>> 5] = bits[j >>> 5]! | (1 << (j & 31));
}

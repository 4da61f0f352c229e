/**
 * Key generation. The service's keys are opaque strings of letters and digits (decisions §5), so no `_` or `-`.
 * With a seed, keys come from a seeded generator so two runs of the same scenario produce the same keys;
 * without one they come from node's crypto-random source.
 */
import { randomBytes, randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_LENGTH = 20;

export interface IdSource {
  /** A new key of letters and digits. */
  key(length?: number): string;
  /** A random float in [0, 1): seeded when the sandbox has a seed. */
  random(): number;
  /** Random bytes (webhook secrets): seeded when the sandbox has a seed. */
  bytes(count: number): Buffer;
}

/** sfc32: small, fast, good-quality seeded PRNG. */
export function seededRandom(seed: number): () => number {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const next = (): number => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 15; i++) next();
  return next;
}

export function createIdSource(seed?: number): IdSource {
  const spell = keySpeller();
  if (seed === undefined) {
    const draw = cryptoAlphabetIndex();
    return { key: (length = KEY_LENGTH) => spell(length, draw), random: Math.random, bytes: (count) => randomBytes(count) };
  }
  const random = seededRandom(seed);
  const draw = () => Math.floor(random() * ALPHABET.length);
  return {
    key: (length = KEY_LENGTH) => spell(length, draw),
    random,
    bytes(count) {
      const out = Buffer.alloc(count);
      for (let i = 0; i < count; i++) out[i] = Math.floor(random() * 256);
      return out;
    },
  };
}

/**
 * Writes a key's characters into a reused byte buffer and makes one string of it. Two keys per contract create
 * (the contract's, the event id) are on the hot path: building them a character at a time (as nanoid does) made
 * twenty intermediate strings and a typed-array view per key, about 1.4 kB of garbage per create.
 */
function keySpeller(): (length: number, draw: () => number) => string {
  let scratch = Buffer.allocUnsafe(64);
  return (length, draw) => {
    if (scratch.length < length) scratch = Buffer.allocUnsafe(length);
    for (let i = 0; i < length; i++) scratch[i] = ALPHABET_CODES[draw()]!;
    return scratch.toString('latin1', 0, length);
  };
}

const ALPHABET_CODES = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));

/**
 * Uniform indexes into the 62-letter alphabet from crypto-random bytes, drawn from a pool refilled 4 kB at a
 * time: a byte's low six bits are used when they are below 62, otherwise the next byte is tried (no modulo bias).
 */
function cryptoAlphabetIndex(): () => number {
  const pool = Buffer.allocUnsafe(4096);
  let at = pool.length;
  return () => {
    for (;;) {
      if (at === pool.length) {
        randomFillSync(pool);
        at = 0;
      }
      const index = pool[at++]! & 63;
      if (index < ALPHABET.length) return index;
    }
  };
}

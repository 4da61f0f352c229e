/**
 * Key generation. The service's keys are opaque strings of letters and digits (docs/compatibility.md, "Keys"), so no `_` or `-`.
 * With a seed, keys come from a seeded generator so two runs of the same scenario produce the same keys;
 * without one they come from nanoid's crypto-random source.
 */
import { randomBytes } from 'node:crypto';
import { customAlphabet } from 'nanoid';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_LENGTH = 20;

export interface IdSource {
  /** A new key of letters and digits. */
  key(length?: number): string;
  /** A random float in [0, 1): seeded when the sandbox has a seed. */
  random(): number;
  /** Random bytes (webhook secrets): seeded when the sandbox has a seed. */
  bytes(count: number): Buffer;
  /** Numbers drawn from a seeded source so far (0 without a seed): kept across a restart with --data. */
  readonly draws: number;
  /** Moves a seeded source on by `draws` numbers (a restart), so no key it gave before is given again. */
  skip(draws: number): void;
  /** A seeded source starts over from its seed (a reset re-seeds the same keys again). */
  restart(): void;
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

/** `onDraw`: told when a seeded source draws (the store keeps `draws`; wiring/state.ts). */
export function createIdSource(seed?: number, onDraw: () => void = () => {}): IdSource {
  if (seed === undefined) {
    const nano = customAlphabet(ALPHABET, KEY_LENGTH);
    return {
      key: (length = KEY_LENGTH) => nano(length),
      random: Math.random,
      bytes: (count) => randomBytes(count),
      draws: 0,
      skip() {},
      restart() {},
    };
  }
  let next = seededRandom(seed);
  let draws = 0;
  const random = () => {
    draws++;
    onDraw();
    return next();
  };
  return {
    get draws() {
      return draws;
    },
    skip(count) {
      for (let i = 0; i < count; i++) next();
      draws += count;
    },
    restart() {
      next = seededRandom(seed);
      draws = 0;
      onDraw();
    },
    key(length = KEY_LENGTH) {
      let out = '';
      for (let i = 0; i < length; i++) out += ALPHABET[Math.floor(random() * ALPHABET.length)];
      return out;
    },
    random,
    bytes(count) {
      const out = Buffer.alloc(count);
      for (let i = 0; i < count; i++) out[i] = Math.floor(random() * 256);
      return out;
    },
  };
}

/** FNV-1a over a text (a fault's id), mixed with the seed: each fault draws its own repeatable sequence. */
function hashSeed(seed: number, text: string): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * What every fault (API or receiver fault) draws with: its own random source, seeded from the seed and its id so the
 * same runs hit the same requests or deliveries (core/fault-set.ts counts the draws, so a restart goes on from there).
 */
export function faultRandom(seed: number, id: string): () => number {
  return seededRandom(hashSeed(seed, id));
}

/**
 * Redaction (docs/verify.md, "Safety rules" and "Transcripts"). Recorded exchanges: every token, secret, API key,
 * email address and key becomes a stable placeholder named after the field it came from (`<contractKey#1>`), the
 * same value the same placeholder in every file of one run, so a transcript can be attached to an issue and still
 * be replayed. Each placeholder keeps the shape of what it hides (`key of 20 [A-Za-z0-9]`, `email`), so a replay
 * compares formats too. What verify prints or writes besides (the table, `--json`, the stderr sentence) goes through
 * a redactor of the secrets alone. A secret is hidden in every form a target may echo it in: as is, URL-encoded,
 * and base64 (standard or URL-safe, at any of the three alignments inside a longer base64 text, which covers
 * `Basic base64(apiKey:secret)` and an encoded token).
 */
import { isKeyField, keyShape } from './shape.js';

const EMAIL_IN_TEXT = /[^\s@<>"'(),;:]+@[^\s@<>"'(),;:]+\.[A-Za-z]{2,}/g;
/** Shorter values are not secrets worth hiding and would match inside ordinary words. */
const SHORTEST = 6;
/** Fields whose values are credentials: hidden in every encoding, not only as they are. */
const SECRET_FIELD = /^(apiKey|secret|access_token|.*[Tt]oken)$/;

/** The shortest base64 run worth hiding: fewer characters would match inside ordinary text. */
const SHORTEST_ENCODED = 8;

/** The forms `value` may be echoed in besides itself: URL-encoded (either case of hex), base64 in any alignment. */
export function encodedForms(value: string): string[] {
  const forms = new Set<string>();
  const encoded = encodeURIComponent(value);
  forms.add(encoded);
  forms.add(encoded.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()));
  forms.add(new URLSearchParams({ v: value }).toString().slice(2));
  const bytes = Buffer.from(value);
  for (let offset = 0; offset < 3; offset++) {
    // Behind `offset` bytes of something else, only the groups of three bytes all of `value` spell out are its own.
    const text = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const first = Math.ceil(offset / 3) * 4;
    const last = Math.floor((offset + bytes.length) / 3) * 4;
    const run = text.slice(first, last);
    if (run.length >= SHORTEST_ENCODED) {
      forms.add(run);
      forms.add(run.replace(/\+/g, '-').replace(/\//g, '_'));
    }
  }
  forms.delete(value);
  return [...forms];
}

export class Redactor {
  private readonly byValue = new Map<string, string>();
  private readonly counts = new Map<string, number>();
  /** Placeholder → the shape of the value it stands for. */
  readonly shapes: Record<string, string> = {};
  private readonly open = new Set<string>();

  /** `emailsInText`: also hide any email address found in free text (transcripts), not only the known ones. */
  constructor(private readonly emailsInText = true) {}

  /** A value that is no secret and must stay as it is (the made-up token of the "bad token" step). */
  allow(value: string): void {
    this.open.add(value);
  }

  /** Hides `value` wherever it appears from now on; answers its placeholder. */
  register(value: string, name: string): string | undefined {
    if (value.length < SHORTEST || this.open.has(value)) return undefined;
    const known = this.byValue.get(value);
    if (known) return known;
    const label = name.replace(/[^A-Za-z_]/g, '') || 'value';
    const n = (this.counts.get(label) ?? 0) + 1;
    this.counts.set(label, n);
    const placeholder = `<${label}#${n}>`;
    this.byValue.set(value, placeholder);
    this.shapes[placeholder] = label === 'email' ? 'email' : keyShape(value);
    return placeholder;
  }

  /** Hides a secret (a key, a password, a token) in every form it can be echoed in (`encodedForms`). */
  registerSecret(value: string, name: string): string | undefined {
    const placeholder = this.register(value, name);
    if (placeholder === undefined) return undefined;
    for (const form of encodedForms(value)) if (!this.byValue.has(form)) this.byValue.set(form, placeholder);
    return placeholder;
  }

  /** Learns the keys, tokens, secrets and emails of a request or an answer before anything is written. */
  collect(value: unknown, field = ''): void {
    if (typeof value === 'string') {
      if (SECRET_FIELD.test(field)) this.registerSecret(value, field);
      else if (isKeyField(field)) this.register(value, field);
      for (const email of value.match(EMAIL_IN_TEXT) ?? []) this.register(email, 'email');
      const bearer = /^Bearer (\S+)$/.exec(value);
      if (bearer) this.registerSecret(bearer[1]!, 'access_token');
    } else if (Array.isArray(value)) for (const item of value) this.collect(item, field);
    else if (value !== null && typeof value === 'object')
      for (const [name, inner] of Object.entries(value)) this.collect(inner, name);
  }

  /** A string with every known value replaced, longest first (a key may contain a shorter one). */
  text(value: string): string {
    let out = value;
    const known = [...this.byValue.keys()].sort((a, b) => b.length - a.length);
    for (const secret of known) if (out.includes(secret)) out = out.split(secret).join(this.byValue.get(secret)!);
    // An email the answers carried in free text (a message, an HTML body) that no field named.
    return this.emailsInText ? out.replace(EMAIL_IN_TEXT, (email) => this.register(email, 'email') ?? email) : out;
  }

  /** A JSON value with every string redacted. */
  redact<T>(value: T): T {
    if (typeof value === 'string') return this.text(value) as T;
    if (Array.isArray(value)) return value.map((item) => this.redact(item)) as T;
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.redact(v)])) as T;
    return value;
  }
}

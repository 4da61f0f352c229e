/**
 * Answers compared by shape, not by value (docs/verify.md, "What is compared"): keys, names and times differ by
 * nature between two services, their shapes must not. A JSON value becomes a tree of shapes: each node the set of
 * kinds seen there (a string's kind is its format: SQL time, ISO time, a key's length and alphabet, URL, email…),
 * an object's fields, an array's items merged into one shape. Two trees differ where their kinds differ.
 */

/** The shape of one place in an answer: the kinds seen there, and what objects and arrays hold. */
export interface Shape {
  kinds: Set<string>;
  fields?: Map<string, Shape>;
  items?: Shape;
}

/** One difference: where (`contracts[].createTime`), and the shape each side showed (`"ISO time"`, `"absent"`). */
export interface Drift {
  path: string;
  sandbox: string;
  target: string;
}

/** What a recorded transcript says of a placeholder that stands for a redacted value: the shape it had. */
export type PlaceholderShapes = Readonly<Record<string, string>>;

const SQL_TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/;
const OTHER_ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?$/;
const URL_TEXT = /^https?:\/\/\S+$/;
const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A redacted value in a transcript: `<contractKey#1>`. */
export const PLACEHOLDER = /<[A-Za-z_]+#\d+>/;
const WHOLE_PLACEHOLDER = new RegExp(`^${PLACEHOLDER.source}$`);

/** Fields whose strings are keys or tokens: described by length and alphabet, never by value. */
export function isKeyField(name: string): boolean {
  return (/Key$/.test(name) && name !== 'customKey') || /^(access_token|secret|shareLink|controlLink)$/.test(name);
}

/**
 * A key's alphabet: `0-9a-f` (hex), `A-Za-z0-9`, `base64` (with + / =) or `base64url` (with - _), else the
 * symbols it holds. A random base64 key may happen to hold no symbol, so `A-Za-z0-9` matches both base64 kinds.
 */
function alphabet(text: string): string {
  if (/^[0-9a-f]+$/.test(text) && text.length >= 16) return '0-9a-f';
  if (/^[A-Za-z0-9]+$/.test(text)) return 'A-Za-z0-9';
  if (/^[A-Za-z0-9+/]+=*$/.test(text)) return 'base64';
  if (/^[A-Za-z0-9_-]+$/.test(text)) return 'base64url';
  return `A-Za-z0-9${[...new Set(text.replace(/[A-Za-z0-9]/g, ''))].sort().join('')}`;
}

/** The one word two keys of the same kind share, whichever symbols each happened to draw. */
function alphabetFamily(kind: string): string {
  return kind.replace(/\[(A-Za-z0-9|base64|base64url)\]/, '[A-Za-z0-9…]');
}

/** "key of 20 [A-Za-z0-9]", "whsec_ + key of 32 [A-Za-z0-9+/]", "UUID". */
export function keyShape(text: string): string {
  if (UUID.test(text)) return 'UUID';
  // Standard Webhooks secrets carry a fixed prefix; a random key may hold `_` anywhere, so no other is guessed.
  const prefixed = /^(whsec_)(.{16,})$/.exec(text);
  if (prefixed) return `${prefixed[1]} + ${keyShape(prefixed[2]!)}`;
  return text === '' ? 'empty string' : `key of ${text.length} [${alphabet(text)}]`;
}

/** The kind of a string: its format where it has one. */
export function stringKind(text: string, field: string, placeholders: PlaceholderShapes = {}): string {
  if (WHOLE_PLACEHOLDER.test(text)) return placeholders[text] ?? 'redacted';
  if (PLACEHOLDER.test(text)) return 'redacted';
  if (isKeyField(field)) return keyShape(text);
  if (text === '') return 'empty string';
  if (SQL_TIME.test(text)) return 'SQL time';
  if (ISO_TIME.test(text)) return 'ISO time';
  if (OTHER_ISO_TIME.test(text)) return 'ISO time, not .000Z';
  if (URL_TEXT.test(text)) return 'URL';
  if (EMAIL.test(text)) return 'email';
  if (/^-?\d+$/.test(text)) return 'numeric string';
  return 'string';
}

function kindOf(value: unknown, field: string, placeholders: PlaceholderShapes): string {
  if (value === undefined) return 'not JSON';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'string') return stringKind(value, field, placeholders);
  return typeof value; // number, boolean, object
}

/** The shape of a JSON value; `field` is the name it sits under (a key field's strings are keys). */
export function shapeOf(value: unknown, field = '', placeholders: PlaceholderShapes = {}): Shape {
  const shape: Shape = { kinds: new Set([kindOf(value, field, placeholders)]) };
  if (Array.isArray(value)) {
    for (const item of value) shape.items = merge(shape.items, shapeOf(item, field, placeholders));
  } else if (value !== null && typeof value === 'object') {
    shape.fields = new Map();
    for (const [name, inner] of Object.entries(value)) shape.fields.set(name, shapeOf(inner, name, placeholders));
  }
  return shape;
}

/** Two items of one array as one shape: kinds joined; a field some items lack is `absent` in those. */
function merge(a: Shape | undefined, b: Shape): Shape {
  if (!a) return b;
  const out: Shape = { kinds: new Set([...a.kinds, ...b.kinds]) };
  if (a.fields || b.fields) {
    out.fields = new Map();
    const names = new Set([...(a.fields?.keys() ?? []), ...(b.fields?.keys() ?? [])]);
    for (const name of names) {
      const left = a.fields?.get(name) ?? (a.fields ? absent() : undefined);
      const right = b.fields?.get(name) ?? (b.fields ? absent() : undefined);
      out.fields.set(name, right ? merge(left, right) : left!);
    }
  }
  if (a.items || b.items) out.items = b.items ? merge(a.items, b.items) : a.items!;
  return out;
}

const absent = (): Shape => ({ kinds: new Set(['absent']) });

/** A set of kinds in words: `string`, `string | null`; a redacted key matches any key (docs/verify.md). */
export function describe(kinds: Set<string>): string {
  return [...kinds].sort().join(' | ');
}

const KEYISH = /key of |^UUID$|^key$/;
const STRINGISH = /^(redacted|string|empty string|numeric string|SQL time|ISO time.*|URL|email)$/;

/**
 * True when two sets of kinds are the same. In a transcript, a placeholder shaped `key` (a published example that
 * does not show the key's format) matches any key, and `redacted` (a string holding a placeholder inside other
 * text) matches any string.
 */
function sameKinds(a: Set<string>, b: Set<string>): boolean {
  const has = (k: string) => a.has(k) || b.has(k);
  const mode = has('redacted') ? 'text' : has('key') ? 'key' : '';
  const norm = (k: string) => {
    if (mode === 'text' && (STRINGISH.test(k) || KEYISH.test(k))) return 'text';
    if (mode === 'key' && KEYISH.test(k)) return 'key';
    return alphabetFamily(k);
  };
  const [x, y] = [new Set([...a].map(norm)), new Set([...b].map(norm))];
  return x.size === y.size && [...x].every((k) => y.has(k));
}

/** Every place where two shapes differ, outermost first; below a place that differs nothing more is said. */
export function compareShapes(sandbox: Shape, target: Shape, path = ''): Drift[] {
  if (!sameKinds(sandbox.kinds, target.kinds))
    return [{ path: path || '(answer)', sandbox: describe(sandbox.kinds), target: describe(target.kinds) }];
  const drifts: Drift[] = [];
  if (sandbox.fields || target.fields) {
    const names = new Set([...(sandbox.fields?.keys() ?? []), ...(target.fields?.keys() ?? [])]);
    for (const name of names) {
      const inner = path ? `${path}.${name}` : name;
      drifts.push(...compareShapes(sandbox.fields?.get(name) ?? absent(), target.fields?.get(name) ?? absent(), inner));
    }
  }
  const itemsPath = `${path}[]`;
  if (sandbox.items && target.items) drifts.push(...compareShapes(sandbox.items, target.items, itemsPath));
  else if (sandbox.items || target.items) {
    // One side listed items, the other none: say so once rather than a drift per field.
    const some = (s: Shape) => (s.items ? `items: ${describe(s.items.kinds)}` : 'no items');
    drifts.push({ path: itemsPath, sandbox: some(sandbox), target: some(target) });
  }
  return drifts;
}

/** One HTTP answer, as the comparison sees it. */
export interface Answer {
  status: number;
  /** The parsed JSON body; undefined when the body was not JSON. */
  body: unknown;
}

/**
 * Two answers to the same request: the HTTP status, `code` by type and value (`"201"` is not `201`), `message` by
 * its exact text, and every other field by shape.
 */
export function compareAnswers(sandbox: Answer, target: Answer, placeholders: PlaceholderShapes = {}): Drift[] {
  const drifts: Drift[] = [];
  if (sandbox.status !== target.status)
    drifts.push({ path: 'status', sandbox: `HTTP ${sandbox.status}`, target: `HTTP ${target.status}` });
  const fieldsOf = (body: unknown) =>
    body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  const [a, b] = [fieldsOf(sandbox.body), fieldsOf(target.body)];
  const exact = (value: unknown) => (value === undefined ? 'absent' : JSON.stringify(value));
  const rest = (fields: Record<string, unknown> | undefined, body: unknown) => {
    if (!fields) return body;
    const { code: _code, message: _message, ...others } = fields;
    return others;
  };
  for (const name of ['code', 'message'] as const) {
    const [left, right] = [exact(a?.[name]), exact(b?.[name])];
    if (name === 'message' && PLACEHOLDER.test(right)) continue; // a recorded message that named a redacted key
    if (left !== right) drifts.push({ path: name, sandbox: left, target: right });
  }
  drifts.push(
    ...compareShapes(shapeOf(rest(a, sandbox.body), '', {}), shapeOf(rest(b, target.body), '', placeholders)).map(
      (d) => (d.path === '(answer)' ? { ...d, path: '(body)' } : d),
    ),
  );
  return drifts;
}

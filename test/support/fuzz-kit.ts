/**
 * Hostile request bodies for the fuzz tests: a valid example body, mutated (fields deleted, types swapped,
 * prototype keys added, huge strings, deep nesting, numbers JSON.parse turns into Infinity or -0), or
 * replaced by raw text. Everything is built from fast-check arbitraries, so a fixed seed gives the same run.
 */
import fc from 'fast-check';

/** Fixed seed and bounded count for CI; FUZZ_SEED and FUZZ_RUNS turn it into a longer hunt. */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20260301);
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 40);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Keys that reach Object.prototype when code copies them carelessly. */
export const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'] as const;
const TRICKY_KEYS = [...PROTO_KEYS, 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'then', 'length', ''];

/** A value that reaches Object.prototype if anything merges it naively. */
export const POLLUTER = () =>
  JSON.parse('{"polluted": 1, "__proto__": {"polluted": 1}, "prototype": {"polluted": 1}}') as Json;

const edgeNumber = fc.constantFrom(
  0,
  -1,
  1,
  0.5,
  -0.5,
  2 ** 31,
  2 ** 32 + 1,
  2 ** 53 + 1,
  -(2 ** 53 + 1),
  Number.MAX_SAFE_INTEGER,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  Number.MIN_VALUE,
  1e21,
  1e308,
  4,
  5,
  1_000_001,
);

const oddString = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  '\ud800',
  'a\udc00b',
  '\ud83d',
  '\u202e\u0645',
  '😀',
  'e\u0301',
  '\ufeff{}',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '../../etc/passwd',
  '%s%n%x',
  '__proto__',
  'constructor',
  'prototype',
  'create',
  'sign',
  'list',
  'NaN',
  'Infinity',
  '-1',
  '1e309',
  '9999-12-31T23:59:59.999Z',
  '275760-09-13T00:00:00.000Z',
  '99999999999999999999d',
  '1e308',
  'null',
  'true',
  'http://[::1]:0/',
  'javascript:alert(1)',
  'a'.repeat(300),
);

const hugeString = fc
  .tuple(fc.constantFrom(10_000, 300_000), fc.constantFrom('x', '😀', '\u0000', 'é', '\ud800'))
  .map(([n, c]) => c.repeat(n));

const hostileString = fc.oneof(
  { weight: 3, arbitrary: oddString },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: hugeString },
);

/** A JSON value of any type, biased to the shapes that break parsers and validators. */
export const hostileValue: fc.Arbitrary<Json> = fc.oneof(
  { weight: 3, arbitrary: edgeNumber },
  { weight: 4, arbitrary: hostileString },
  { weight: 1, arbitrary: fc.constantFrom<Json>(null, true, false, [], {}, [null], [{}], [[]]) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json> },
  { weight: 1, arbitrary: fc.constant(null).map(POLLUTER) },
);

/** Raw JSON text that JSON.stringify cannot produce: deep nesting and number literals at the edges. */
const rawFragment = fc.oneof(
  fc
    .tuple(fc.constantFrom(100, 10_000, 50_000), fc.constantFrom('array', 'object', 'proto'))
    .map(([depth, shape]) =>
      shape === 'array'
        ? '['.repeat(depth) + ']'.repeat(depth)
        : shape === 'object'
          ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
          : `${'{"__proto__":'.repeat(depth)}{"polluted":1}${'}'.repeat(depth)}`,
    ),
  fc.constantFrom(
    '1e309',
    '-1e309',
    '-0',
    '9007199254740993',
    '1e-400',
    '123456789012345678901234567890',
    '0.1e1',
    '-0.0',
  ),
);

export type Mutation =
  | { kind: 'delete'; pick: number }
  | { kind: 'replace'; pick: number; value: Json }
  | { kind: 'addKey'; pick: number; key: string; value: Json }
  | { kind: 'wrapInArray'; pick: number }
  | { kind: 'raw'; pick: number; text: string };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('replace' as const), pick: fc.nat(), value: hostileValue }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('addKey' as const),
      pick: fc.nat(),
      key: fc.oneof(fc.constantFrom(...TRICKY_KEYS), fc.string({ unit: 'binary', maxLength: 10 })),
      value: hostileValue,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('wrapInArray' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('raw' as const), pick: fc.nat(), text: rawFragment }) },
);

/** What reaches the wire: a mutated example, or a body that is not the example at all. */
export type HostileBody =
  | { kind: 'mutated'; mutations: Mutation[] }
  | { kind: 'whole'; value: Json }
  | { kind: 'text'; text: string };

const rawText = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'null',
    'true',
    '0',
    '"data"',
    '[]',
    '[{}]',
    '{',
    '{"data":',
    '{"data": {"action": "create"',
    "{'data': {}}",
    '{"data": undefined}',
    '{"data": NaN}',
    '{"a":1,}',
    '<xml/>',
    'data=1&action=create',
    '\ufeff{"data": {}}',
    '\u0000',
    '{"data": {"action": "list"}}garbage',
    '{"data":{}}{"data":{}}',
    '1e309',
    '"\\ud800"',
  ),
  fc.string({ unit: 'binary', maxLength: 200 }),
);

export const hostileBody: fc.Arbitrary<HostileBody> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('mutated' as const),
      mutations: fc.array(mutation, { minLength: 1, maxLength: 3 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('whole' as const), value: hostileValue }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('text' as const), text: rawText }) },
);

/** Mostly JSON (so the mutation reaches validation), sometimes a content type the sandbox must refuse. */
export const contentType = fc.oneof(
  { weight: 12, arbitrary: fc.constant<string | undefined>('application/json') },
  {
    weight: 2,
    arbitrary: fc.constantFrom<string | undefined>(
      undefined,
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/vnd.api+json',
      'application/jsonx',
      'json',
      '',
      'application/json;;',
      'application/json, text/plain',
    ),
  },
);

/** Every node of a JSON value, as paths of keys (the root is []). */
function paths(value: unknown, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(at);
  if (Array.isArray(value)) value.forEach((v, i) => void paths(v, [...at, i], out));
  else if (value !== null && typeof value === 'object')
    for (const k of Object.keys(value)) paths((value as Record<string, unknown>)[k], [...at, k], out);
  return out;
}

/** Sets an own property, so "__proto__" becomes a key like any other rather than a prototype change. */
function setOwn(target: object, key: string | number, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function parentOf(root: { v: unknown }, path: (string | number)[]): [object, string | number] {
  let node: any = root;
  let key: string | number = 'v';
  for (const step of path) {
    node = node[key];
    key = step;
  }
  return [node, key];
}

/** Applies mutations to a copy of `example` and renders it as the exact text to send. */
export function render(example: unknown, body: HostileBody): string {
  if (body.kind === 'text') return body.text;
  if (body.kind === 'whole') return JSON.stringify(body.value);
  const root = { v: JSON.parse(JSON.stringify(example)) as unknown };
  const raws: string[] = [];
  for (const m of body.mutations) {
    const all = paths(root.v);
    const path = all[m.pick % all.length]!;
    const [parent, key] = parentOf(root, path);
    const current = (parent as Record<string | number, unknown>)[key];
    switch (m.kind) {
      case 'delete':
        if (Array.isArray(parent)) parent.splice(key as number, 1);
        else delete (parent as Record<string | number, unknown>)[key];
        break;
      case 'replace':
        setOwn(parent, key, fresh(m.value));
        break;
      case 'addKey':
        if (current !== null && typeof current === 'object' && !Array.isArray(current))
          setOwn(current, m.key, fresh(m.value));
        else if (Array.isArray(current)) current.push(fresh(m.value));
        else setOwn(parent, key, plant({}, [], m.key, fresh(m.value)));
        break;
      case 'wrapInArray':
        setOwn(parent, key, [current]);
        break;
      case 'raw':
        setOwn(parent, key, `\u0001raw${raws.length}\u0001`);
        raws.push(m.text);
        break;
    }
  }
  let text = JSON.stringify(root.v) ?? '';
  raws.forEach((raw, i) => {
    text = text.replace(JSON.stringify(`\u0001raw${i}\u0001`), () => raw);
  });
  return text;
}

/**
 * A private copy of a generated value: fast-check hands the same object to later runs (and to shrinking), so
 * planting it as is would let one mutation edit another and even build cycles.
 */
function fresh(value: Json): Json {
  return JSON.parse(JSON.stringify(value)) as Json;
}

/** Replaces `<NAME>` markers in an example body with real keys. */
export function fillExample(example: unknown, keys: Record<string, string>): unknown {
  return JSON.parse(JSON.stringify(example), (_k, v) =>
    typeof v === 'string' ? v.replace(/<([A-Z_]+)>/g, (whole, name: string) => keys[name] ?? whole) : v,
  );
}

/** Every object inside a body, as paths: where a "__proto__" key can be planted. */
export function objectPaths(value: unknown): (string | number)[][] {
  const all = paths(value);
  return all.filter((p) => {
    let node: any = value;
    for (const step of p) node = node[step];
    return node !== null && typeof node === 'object' && !Array.isArray(node);
  });
}

/** A copy of `value` with `key: payload` planted as an own property of the object at `path`. */
export function plant(value: unknown, path: (string | number)[], key: string, payload: unknown): unknown {
  const copy = JSON.parse(JSON.stringify(value)) as unknown;
  let node: any = copy;
  for (const step of path) node = node[step];
  setOwn(node, key, payload);
  return copy;
}

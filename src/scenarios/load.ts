/**
 * Reads scenario YAML into a checked Scenario, or fails with messages a person can act on: the file, the line
 * and column, the key path and what was expected. YAML syntax errors come from the `yaml` parser with their
 * position; schema violations come from zod, and each issue's path is mapped back to the YAML node it is about.
 * The yaml library is imported on first use, so a sandbox started without scenarios never loads it.
 */
import type { Document, LineCounter } from 'yaml';
import { ApiError } from '../core/errors.js';
import { SandboxControlError } from '../control/sandbox-control.js';
import type { z } from 'zod';
import { type Scenario, scenarioSchema } from './schema.js';

export interface ScenarioProblem {
  file: string;
  line: number;
  col: number;
  /** Key path like `timeline[2].expireTokens`, or `(top level)`. */
  path: string;
  message: string;
}

/**
 * A scenario that cannot be loaded: every problem with its file, line, column and key path. It is a
 * SandboxControlError (status 400, `errors` as the control API answers them), so code that catches either works.
 */
export class ScenarioError extends SandboxControlError {
  constructor(readonly problems: ScenarioProblem[]) {
    const file = problems[0]?.file ?? '<request>';
    super(
      400,
      `Scenario ${file} is invalid:\n${problems.map(formatProblem).join('\n')}`,
      problems.map((p) => ({ path: p.path, message: `line ${p.line}, column ${p.col}: ${p.message}` })),
    );
    this.name = 'ScenarioError';
  }
}

/** The loader's messages as a 400: the message lists them; `errors` carries each with its key path. */
export function scenarioRefusal(error: ScenarioError): ApiError {
  return ApiError.badRequest(error.message, error.errors);
}

export function formatProblem(p: ScenarioProblem): string {
  return `${p.file}:${p.line}:${p.col}: ${p.path}: ${p.message}`;
}

type Yaml = typeof import('yaml');

/** Parses and validates scenario text. `file` names it in messages (a path, or `<request>`). */
export async function parseScenario(text: string, file: string): Promise<Scenario> {
  const Y: Yaml = await import('yaml');
  const lineCounter = new Y.LineCounter();
  const doc = Y.parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, strict: true });
  if (doc.errors.length > 0) {
    throw new ScenarioError(
      doc.errors.map((error) => {
        const at = lineCounter.linePos(error.pos[0]);
        return {
          file,
          line: at.line,
          col: at.col,
          path: pathAtOffset(Y, doc, error.pos[0]),
          message: `YAML syntax: ${error.message.split('\n')[0]}`,
        };
      }),
    );
  }
  const raw = readAliases(doc, file);
  if (raw === null || raw === undefined) {
    throw new ScenarioError([
      { file, line: 1, col: 1, path: '(top level)', message: 'the file is empty; a scenario needs at least "name:"' },
    ]);
  }
  const result = scenarioSchema().safeParse(raw, { reportInput: true });
  if (result.success) return result.data;
  const problems: ScenarioProblem[] = [];
  for (const issue of result.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      const allowed = allowedKeys(issue.path);
      for (const key of issue.keys) {
        const path = [...issue.path, key];
        problems.push({
          file,
          ...position(Y, doc, lineCounter, path, true),
          path: formatPath(path),
          message: `unknown key "${key}"${allowed.length ? `; expected one of: ${allowed.join(', ')}` : ''}`,
        });
      }
      continue;
    }
    problems.push({
      file,
      ...position(Y, doc, lineCounter, issue.path, false),
      path: formatPath(issue.path),
      message: describeIssue(issue),
    });
  }
  problems.sort((a, b) => a.line - b.line || a.col - b.col);
  throw new ScenarioError(problems);
}

/**
 * The document as plain data. More than 100 alias expansions (`*a` of a large anchor, repeated) are refused, so a
 * few lines cannot expand to millions of values; the yaml library throws a ReferenceError for that (and for an
 * alias it cannot resolve), which is the author's mistake, not the sandbox's: a 400, not a 500.
 */
function readAliases(doc: Document, file: string): unknown {
  try {
    return doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    if (!(error instanceof ReferenceError)) throw error;
    throw new ScenarioError([
      {
        file,
        line: 1,
        col: 1,
        path: '(top level)',
        message: `YAML aliases: ${error.message} (at most 100 alias expansions are read)`,
      },
    ]);
  }
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const input = (issue as { input?: unknown }).input;
  switch (issue.code) {
    case 'invalid_type':
      if (input === undefined) return `required: expected ${article(issue.expected)}`;
      return `expected ${article(issue.expected)}, got ${preview(input)}`;
    case 'invalid_value':
      return `expected ${issue.values.length === 1 ? JSON.stringify(issue.values[0]) : `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`}, got ${preview(input)}`;
    case 'invalid_union':
    case 'invalid_format':
    case 'custom':
      return input === undefined || issue.code === 'custom' ? issue.message : `${issue.message}, got ${preview(input)}`;
    case 'too_small':
    case 'too_big':
      return `${issue.message.replace(/^Too (small|big): /, '')}${input !== undefined && typeof input !== 'object' ? `, got ${preview(input)}` : ''}`;
    default:
      return issue.message;
  }
}

function article(expected: string): string {
  if (expected === 'object') return 'a mapping (key: value lines)';
  if (expected === 'array') return 'a list (lines starting with "- ")';
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

function preview(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || '(top level)';
}

/** Line and column of the node at `path`, or of its nearest existing ancestor (a missing key points at its parent). */
function position(
  Y: Yaml,
  doc: Document,
  lc: LineCounter,
  path: readonly PropertyKey[],
  atKey: boolean,
): { line: number; col: number } {
  for (let n = path.length; n >= 0; n--) {
    const offset = nodeOffset(Y, doc, path.slice(0, n) as (string | number)[], atKey && n === path.length);
    if (offset !== undefined) return lc.linePos(offset);
  }
  return { line: 1, col: 1 };
}

function nodeOffset(Y: Yaml, doc: Document, path: (string | number)[], atKey: boolean): number | undefined {
  if (path.length === 0) return doc.contents?.range?.[0];
  if (atKey) {
    const parent = doc.getIn(path.slice(0, -1), true);
    if (Y.isMap(parent)) {
      const pair = parent.items.find(
        (p) => Y.isPair(p) && Y.isScalar(p.key) && String(p.key.value) === String(path[path.length - 1]),
      );
      const key = pair?.key as { range?: [number, number, number] } | undefined;
      if (key?.range) return key.range[0];
    }
    return undefined;
  }
  const node = doc.getIn(path, true) as { range?: [number, number, number] } | undefined;
  return node && typeof node === 'object' && node.range ? node.range[0] : undefined;
}

/** For syntax errors: the path of the deepest node whose range holds the error's offset. */
function pathAtOffset(Y: Yaml, doc: Document, offset: number): string {
  const path: (string | number)[] = [];
  let node: unknown = doc.contents;
  for (let depth = 0; depth < 100; depth++) {
    let next: unknown;
    if (Y.isMap(node)) {
      for (const pair of node.items) {
        const value = pair.value as { range?: [number, number, number] } | null;
        const key = pair.key as { range?: [number, number, number] } | null;
        const start = key?.range?.[0] ?? value?.range?.[0];
        const end = value?.range?.[2] ?? key?.range?.[2];
        if (start !== undefined && end !== undefined && offset >= start && offset <= end) {
          path.push(Y.isScalar(pair.key) ? String(pair.key.value) : '?');
          next = pair.value;
          break;
        }
      }
    } else if (Y.isSeq(node)) {
      node.items.forEach((item, i) => {
        const range = (item as { range?: [number, number, number] } | null)?.range;
        if (next === undefined && range && offset >= range[0] && offset <= range[2]) {
          path.push(i);
          next = item;
        }
      });
    }
    if (next === undefined) break;
    node = next;
  }
  return formatPath(path);
}

/** The keys a strict object at `path` accepts, read off the zod schema. */
function allowedKeys(path: readonly PropertyKey[]): string[] {
  let schema: z.core.$ZodType | undefined = scenarioSchema();
  for (const part of path) {
    schema = objectOf(schema);
    if (!schema) return [];
    const def = schema._zod.def as { type: string; shape?: Record<string, z.core.$ZodType>; element?: z.core.$ZodType };
    if (typeof part === 'number') schema = def.type === 'array' ? def.element : undefined;
    else schema = def.shape?.[String(part)];
  }
  const target = objectOf(schema);
  const shape = target ? (target._zod.def as { shape?: Record<string, unknown> }).shape : undefined;
  return shape ? Object.keys(shape).filter((k) => k !== '$schema') : [];
}

/** Unwraps optional/default/nullable/pipe; picks the object member of a union. */
function objectOf(schema: z.core.$ZodType | undefined): z.core.$ZodType | undefined {
  for (let i = 0; schema && i < 10; i++) {
    const def = schema._zod.def as {
      type: string;
      innerType?: z.core.$ZodType;
      in?: z.core.$ZodType;
      options?: z.core.$ZodType[];
    };
    if (def.type === 'object' || def.type === 'array') return schema;
    if (def.type === 'union')
      return def.options?.map((o) => objectOf(o)).find((o) => o && (o._zod.def as { type: string }).type === 'object');
    schema = def.innerType ?? def.in;
  }
  return schema;
}

#!/usr/bin/env node
/**
 * Checks the layering of src/ (docs/architecture.md): no import cycle between files, and every import goes to
 * the same folder or to a folder of a lower layer; folders that share a layer never import each other.
 * `node scripts/check-architecture.mjs` prints what is wrong and exits 1; test/architecture.test.ts runs it.
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SRC, sourceFiles } from './source-files.mjs';

/** Top to bottom: a folder may import its own files and the folders of later layers, nothing else. */
export const LAYERS = [
  ['(root)'], // index.ts, cli.ts, sandbox.ts: the entry points; sandbox.ts composes one sandbox
  ['wiring', 'team'], // the parts sandbox.ts composes: state, subsystems, HTTP app, listener; a team replica's election and forwarding
  ['verify', 'report'], // esign-sandbox verify and report: users of the HTTP API, started by cli.ts
  ['http', 'client', 'testing', 'intercept'], // the HTTP edge: /api router, /__sandbox routes, pages…; the control client; test helpers; the service's host redirected (register, MSW)
  ['mcp'], // the MCP server: the control table as tools (stdio for `esign-sandbox mcp`, HTTP at /__sandbox/mcp)
  ['openapi'],
  ['control-table'], // the control API declared once: a table of operations (routes, OpenAPI, client, library derive from it)
  ['resources'], // thin /api handlers: zod schema + one domain call
  ['scenarios'], // users of the control operations and the domain
  ['control'], // the control operations, in parts
  ['fixtures'],
  ['readiness'], // the readiness report: checks over the journal, the deliveries and the faults applied
  ['webhooks', 'outbox', 'api-faults', 'journal', 'rate-limits'], // subsystems fed by events; quotas
  ['domain'], // every business rule
  ['render', 'tracing'], // documents drawn from plain jobs (pdf-lib, docx, htmlparser2), called by the domain; spans exported over OTLP (OpenTelemetry, loaded only then)
  ['store'],
  ['config'],
  ['core'], // errors, clock, ids, events, validation: used everywhere
];

function folderOf(file) {
  const parts = relative(SRC, file).split(sep);
  return parts.length === 1 ? '(root)' : parts[0];
}

function layerOf(folder) {
  const i = LAYERS.findIndex((names) => names.includes(folder));
  if (i < 0) throw new Error(`src/${folder}/ is in no layer: add it to LAYERS in scripts/check-architecture.mjs`);
  return i;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g;

/** Every relative import of every file: Map<file, Set<file>>. */
export function importGraph() {
  const graph = new Map();
  for (const file of sourceFiles()) {
    const text = readFileSync(file, 'utf8');
    const targets = new Set();
    for (const m of text.matchAll(IMPORT)) targets.add(resolve(dirname(file), m[1] ?? m[2]).replace(/\.js$/, '.ts'));
    graph.set(file, targets);
  }
  return graph;
}

/** Problems, as sentences; empty when the layering holds. */
export function architectureProblems(graph = importGraph()) {
  const problems = [];
  const name = (f) => `src/${relative(SRC, f).split(sep).join('/')}`;
  for (const [file, targets] of graph) {
    const from = folderOf(file);
    for (const target of targets) {
      if (!graph.has(target)) {
        problems.push(`${name(file)} imports ${name(target)}, which does not exist`);
        continue;
      }
      const to = folderOf(target);
      if (from === to) continue;
      if (layerOf(to) <= layerOf(from)) {
        const how = layerOf(to) === layerOf(from) ? 'a sibling folder of the same layer' : 'a higher layer';
        problems.push(`${name(file)} imports ${name(target)}: ${to}/ is ${how} than ${from}/`);
      }
    }
  }
  for (const cycle of cycles(graph)) problems.push(`import cycle: ${[...cycle, cycle[0]].map(name).join(' → ')}`);
  return problems;
}

/** Strongly connected components of more than one file (Tarjan), each as a list of files. */
function cycles(graph) {
  let index = 0;
  const stack = [];
  const info = new Map();
  const found = [];
  const visit = (v) => {
    info.set(v, { index, low: index, on: true });
    index++;
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!info.has(w)) {
        visit(w);
        info.get(v).low = Math.min(info.get(v).low, info.get(w).low);
      } else if (info.get(w).on) info.get(v).low = Math.min(info.get(v).low, info.get(w).index);
    }
    if (info.get(v).low === info.get(v).index) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        info.get(w).on = false;
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.reverse());
    }
  };
  for (const v of graph.keys()) if (!info.has(v)) visit(v);
  return found;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const problems = architectureProblems();
  for (const p of problems) console.log(p);
  console.log(problems.length ? `${problems.length} problem(s)` : 'layers hold: no cycle, every import goes down');
  process.exit(problems.length ? 1 : 0);
}

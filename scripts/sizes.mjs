#!/usr/bin/env node
/**
 * The sizes the ratchet keeps (docs/architecture.md, "Sizes"): every file of src/ over 400 lines and every function
 * over 60 lines, by name. test/sizes.test.ts compares them with the list it knows, so that none grows and no new one
 * appears; `node scripts/sizes.mjs` prints today's list in the test's form.
 */
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { SRC, sourceFiles } from './source-files.mjs';

export const MAX_FILE_LINES = 400;
export const MAX_FUNCTION_LINES = 60;

/** A function's name as a reader looks for it: its own, or the variable, property or method that holds it. */
function nameOf(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name && ts.isStringLiteral(node.name)) return node.name.text;
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (
    parent &&
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
  )
    return parent.name.getText();
  if (parent && ts.isCallExpression(parent)) {
    // A function handed to a call: named after what holds the call's result (`recordSchemas = lazy(…)`).
    let holder = parent;
    while (
      holder.parent &&
      !ts.isVariableDeclaration(holder) &&
      !ts.isPropertyAssignment(holder) &&
      !ts.isBlock(holder)
    )
      holder = holder.parent;
    const callee = parent.expression.getText().slice(0, 40);
    if (ts.isVariableDeclaration(holder) || ts.isPropertyAssignment(holder))
      return `${holder.name.getText()} = ${callee}(…)`;
    return `${callee}(…)`;
  }
  return '(anonymous)';
}

function isFunction(node) {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

/**
 * Today's sizes: `files`, path (from src/) → lines, for files over the limit; `functions`, `path name` → lines, for
 * functions over the limit (a function inside another is named `outer > inner`; the same name twice in a file
 * keeps the longest).
 */
export function measureSizes() {
  const files = {};
  const functions = {};
  for (const path of sourceFiles()) {
    const text = readFileSync(path, 'utf8');
    const rel = relative(SRC, path).split('\\').join('/');
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (lines > MAX_FILE_LINES) files[rel] = lines;
    const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    const visit = (node, outer) => {
      let inside = outer;
      if (isFunction(node) && node.body) {
        const name = outer ? `${outer} > ${nameOf(node)}` : nameOf(node);
        const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        const length = end - start + 1;
        const key = `${rel} ${name}`;
        if (length > MAX_FUNCTION_LINES) functions[key] = Math.max(functions[key] ?? 0, length);
        inside = name;
      }
      ts.forEachChild(node, (child) => visit(child, inside));
    };
    visit(source, '');
  }
  return { files, functions };
}

/**
 * What breaks the ratchet: a file or function over its limit that the frozen list does not name, one longer than
 * its frozen number, and a frozen entry now within the limit or gone (the list only gets shorter: take it out).
 */
export function sizeProblems(measured, frozen) {
  const problems = [];
  for (const [kind, limit] of [
    ['files', MAX_FILE_LINES],
    ['functions', MAX_FUNCTION_LINES],
  ]) {
    const what = kind === 'files' ? 'file' : 'function';
    for (const [key, lines] of Object.entries(measured[kind])) {
      const known = frozen[kind][key];
      if (known === undefined) problems.push(`new ${what} over ${limit} lines: ${key} (${lines}); split it`);
      else if (lines > known) problems.push(`${what} grew: ${key} is ${lines} lines, frozen at ${known}; split it`);
    }
    for (const [key, lines] of Object.entries(frozen[kind]))
      if (measured[kind][key] === undefined)
        problems.push(
          `${what} within ${limit} lines now (or renamed): ${key} (frozen at ${lines}); take it off the list`,
        );
  }
  return problems;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { files, functions } = measureSizes();
  const show = (table) =>
    Object.entries(table)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, lines]) => `  '${key}': ${lines},`)
      .join('\n');
  console.log(
    `files over ${MAX_FILE_LINES} lines:\n${show(files)}\nfunctions over ${MAX_FUNCTION_LINES} lines:\n${show(functions)}`,
  );
}

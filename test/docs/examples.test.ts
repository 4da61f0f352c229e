/**
 * Every example of README.md and docs/*.md, run (docs are copy-paste examples that must be true):
 * - the shell blocks that make requests (`curl`), each file's in order in one bash session, against the real CLI
 *   started with the flags the file itself shows (`npx esign-sandbox …`), from a folder holding what the reader
 *   would have (the scenario files the page shows, an `agreement.pdf`). Every command must succeed, and the request
 *   journal must show no compatibility warning (`X-Sandbox-Warning`: a form the real service is reported to
 *   ignore), no 5xx, and no 4xx but those the page itself shows as answers;
 *   (the docs' JSON blocks are answers; every request body stands in a curl block);
 * - TypeScript and JavaScript blocks, type-checked against the package's own types, names the snippet takes
 *   for granted (`sandbox`, `page`, `expect`, your own `myClient`) declared for it (typed where the package or
 *   the test tools name a type).
 * A block that cannot run as it is (it needs your application) carries `<!-- example: skip: <why> -->`; the
 * skipped ones are printed. New blocks in any of these files are checked without changing this test.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { startCli } from '../support/cli-process.js';
import { type DocBlock, ROOT, docBlocks, docFiles } from '../support/doc-blocks.js';
import { makePdf } from '../support/documents-kit.js';

const run = promisify(execFile);
const SHELL = new Set(['sh', 'bash', 'shell', 'console']);
const DOCUMENTED = /(?:https?:\/\/)?(?:127\.0\.0\.1|localhost):4010/g;

const files = docFiles().map((file) => ({ file, blocks: docBlocks(file) }));
const skipped = files.flatMap(({ blocks }) => blocks.filter((b) => b.skip));
if (skipped.length)
  console.log(`docs examples not run:\n${skipped.map((b) => `  ${b.file}:${b.line}: ${b.skip}`).join('\n')}`);

/** A block that starts things (the sandbox, npm) rather than making requests. */
const startsSomething = (b: DocBlock) => /^\s*(npx esign-sandbox|npm |node |bash |[A-Z_]+=\S+ npx)/m.test(b.text);
const requestBlocks = (blocks: DocBlock[]) =>
  blocks.filter((b) => SHELL.has(b.lang) && !b.skip && /\bcurl\b/.test(b.text) && !startsSomething(b));

/** The flags of the page's own `npx esign-sandbox …` line, if it shows one to start with (the port left out). */
function startFlags(blocks: DocBlock[]): string[] {
  for (const b of blocks) {
    if (!SHELL.has(b.lang) || b.skip) continue;
    const first = b.text.split('\n').find((l) => l.trim() && !l.trim().startsWith('#'));
    const m = first && /^\s*npx esign-sandbox((?:\s+[^\s#&|>]+)*)\s*(#.*)?$/.exec(first);
    if (!m || /\bcurl\b/.test(b.text)) continue;
    const args = m[1]!.trim().split(/\s+/).filter(Boolean);
    const out: string[] = [];
    for (let i = 0; i < args.length; i++) {
      if (args[i] === '--port' || args[i] === '-p') i++;
      else out.push(args[i]!);
    }
    return out;
  }
  return [];
}

interface Entry {
  method: string;
  path: string;
  status: number;
  warnings?: string[];
}

const work = mkdtempSync(join(tmpdir(), 'esign-docs-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the shell examples of the docs', () => {
  const runnable = files.filter(({ blocks }) => requestBlocks(blocks).length > 0);
  it.each(runnable.map(({ file, blocks }) => [file, blocks] as const))(
    '%s: every request runs, with no warning and no error the page does not show',
    async (_file, blocks) => {
      const cwd = mkdtempSync(join(work, 'reader-'));
      // What the reader has beside them: the scenario files the page shows, and a PDF of their own.
      for (const b of blocks.filter((x) => x.lang === 'yaml' || x.lang === 'yml')) {
        const doc = (() => {
          try {
            return parse(b.text) as unknown;
          } catch {
            return undefined;
          }
        })();
        const name = (doc as { name?: unknown } | undefined)?.name;
        if (typeof name === 'string') writeFileSync(join(cwd, `${name}.yaml`), b.text);
      }
      writeFileSync(join(cwd, 'agreement.pdf'), await makePdf(1));

      const cli = await startCli([...startFlags(blocks), '--quiet'], { cwd });
      try {
        const script = requestBlocks(blocks)
          .map((b) => `# ${b.file}:${b.line}\n${b.text.replace(DOCUMENTED, cli.url)}`)
          .join('\n\n');
        const result = await run('bash', ['-c', `set -euo pipefail\n${script}`], { cwd, timeout: 60_000 }).then(
          () => ({ ok: true, output: '' }),
          (error: { stdout?: string; stderr?: string; message: string }) => ({
            ok: false,
            output: `${error.message}\n${error.stdout ?? ''}\n${error.stderr ?? ''}`,
          }),
        );
        expect(result.ok, result.output).toBe(true);

        const { requests } = (await (await fetch(`${cli.url}/__sandbox/requests?limit=1000`)).json()) as {
          requests: Entry[];
        };
        expect(requests.length, 'requests made').toBeGreaterThan(0);
        const warned = requests.filter((r) => r.warnings?.length).map((r) => `${r.method} ${r.path}: ${r.warnings}`);
        expect(warned).toEqual([]);
        const shown = blocks.map((b) => b.text).join('\n');
        const unexpected = requests.filter(
          (r) => r.status >= 500 || (r.status >= 400 && !new RegExp(`"code":\\s*"?${r.status}\\b`).test(shown)),
        );
        expect(unexpected.map((r) => `${r.method} ${r.path} → ${r.status}`)).toEqual([]);
      } finally {
        cli.child.kill('SIGTERM');
        await cli.exited;
      }
    },
    90_000,
  );
});

/** Names a snippet may take for granted, with their types where one is known. */
const KNOWN: Readonly<Record<string, string>> = {
  sandbox: "import('esign-sandbox').RunningSandbox",
  receiver: "import('esign-sandbox').WebhookReceiver",
  control: "import('esign-sandbox').ControlClient",
  page: "import('playwright-core').Page",
  expect: "typeof import('vitest').expect",
  it: "typeof import('vitest').it",
  test: "typeof import('vitest').test",
  describe: "typeof import('vitest').describe",
  beforeAll: "typeof import('vitest').beforeAll",
  afterAll: "typeof import('vitest').afterAll",
  beforeEach: "typeof import('vitest').beforeEach",
  afterEach: "typeof import('vitest').afterEach",
};

describe('the TypeScript and JavaScript examples of the docs', () => {
  const snippets = files.flatMap(({ blocks }) =>
    blocks.filter((b) => ['ts', 'typescript', 'js', 'javascript', 'mjs'].includes(b.lang) && !b.skip),
  );
  it('type-check against the package', () => {
    const name = (b: DocBlock) => join(ROOT, 'test', 'docs', `.snippet-${b.file.replace(/\W/g, '_')}-${b.line}.ts`);
    const sources = new Map(snippets.map((b) => [name(b), `${b.text}\nexport {};\n`]));
    const options: ts.CompilerOptions = {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      // A snippet's callbacks for your own framework (`app.post(…, (req, res) => …)`) have no types to infer.
      noImplicitAny: false,
      noEmit: true,
      skipLibCheck: true,
      types: ['node'],
      baseUrl: ROOT,
      // The package as users get it: its built declarations (the suite's global setup builds dist/).
      paths: {
        'esign-sandbox': ['dist/index.d.ts'],
        'esign-sandbox/testcontainers': ['dist/testcontainers.d.ts'],
        'esign-sandbox/msw': ['dist/msw.d.ts'],
      },
    };
    let previous: ts.Program | undefined;
    const check = (extra: Map<string, string>) => {
      const host = ts.createCompilerHost(options);
      const read = host.readFile.bind(host);
      host.readFile = (f) => extra.get(f) ?? read(f);
      const exists = host.fileExists.bind(host);
      host.fileExists = (f) => extra.has(f) || exists(f);
      previous = ts.createProgram([...extra.keys()], options, host, previous);
      const program = previous;
      return [...extra.keys()].flatMap((f) => [...ts.getPreEmitDiagnostics(program, program.getSourceFile(f))]);
    };
    // The names each snippet takes for granted, found pass by pass (a name declared can reveal the next).
    const missing = new Map<string, Set<string>>();
    const withNames = () =>
      new Map(
        [...sources].map(([f, text]) => [
          f,
          `${[...(missing.get(f) ?? [])].map((n) => `declare const ${n}: ${KNOWN[n] ?? 'any'};`).join(' ')}\n${text}`,
        ]),
      );
    let declared = withNames();
    let diagnostics = check(declared);
    for (let pass = 0; pass < 4; pass++) {
      let found = false;
      for (const d of diagnostics) {
        const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
        const match =
          /Cannot find name '([^']+)'/.exec(text) ??
          /No value exists in scope for the shorthand property '([^']+)'/.exec(text);
        if (!match || !d.file) continue;
        const names = missing.get(d.file.fileName) ?? new Set();
        if (!names.has(match[1]!)) found = true;
        missing.set(d.file.fileName, names.add(match[1]!));
      }
      if (!found) break;
      declared = withNames();
      diagnostics = check(declared);
    }
    // A snippet's own relative imports (`../src/contract-client.js`) are the reader's modules, not the package's.
    const readersModule = (d: ts.Diagnostic) =>
      d.code === 2307 && /Cannot find module '\.{1,2}\//.test(ts.flattenDiagnosticMessageText(d.messageText, ' '));
    diagnostics = diagnostics.filter((d) => !readersModule(d));
    const problems = diagnostics
      .filter((d) => d.file && declared.has(d.file.fileName))
      .map((d) => {
        const block = snippets.find((b) => name(b) === d.file!.fileName)!;
        const { line } = d.file!.getLineAndCharacterOfPosition(d.start ?? 0);
        return `${block.file}:${block.line + line}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
      });
    expect(problems).toEqual([]);
  }, 180_000);
});

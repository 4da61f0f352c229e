/**
 * Bundles the CLI (dist/cli.js, after tsc) into one file in place. Loading ~60 ES modules (ours, zod's, hono's,
 * yaml's) one by one is most of the start time; one pre-linked file starts in about half the time, which keeps
 * `esign-sandbox` within 1.3× of a bare Hono server's start (docs/benchmarks.md). The library entry
 * (dist/index.js) stays as tsc wrote it. faker stays outside: it is imported only when fixtures generate data.
 */
import { build } from 'esbuild';

await build({
  entryPoints: ['dist/cli.js'],
  outfile: 'dist/cli.js',
  allowOverwrite: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['@faker-js/faker'],
  // Whitespace and syntax only: names stay readable in stack traces of internal errors.
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: true,
  legalComments: 'none',
  logLevel: 'warning',
  // yaml is CommonJS inside; a bundled ESM file needs `require` for it.
  banner: { js: "import { createRequire as __esignRequire } from 'node:module'; const require = __esignRequire(import.meta.url);" },
});

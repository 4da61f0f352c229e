/**
 * Bundles the CLI (dist/cli.js, after tsc) into one file in place. Loading ~60 ES modules (ours, zod's, hono's,
 * yaml's) one by one is most of the start time; one pre-linked file starts in about half the time, which keeps
 * `esign-sandbox` within 1.3× of a bare Hono server's start (docs/benchmarks.md). The library entry
 * (dist/index.js) stays as tsc wrote it. faker stays outside: it is imported only when fixtures generate data.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { parse } from 'yaml';

// The bundled fixtures, parsed once here (see src/store/yaml-parse.ts for how the cache is used).
const cache = {};
for (const name of readdirSync('fixtures').filter((f) => /\.ya?ml$/i.test(f))) {
  const text = readFileSync(join('fixtures', name), 'utf8');
  cache[createHash('sha1').update(text).digest('hex')] = parse(text);
}
writeFileSync('dist/yaml-cache.json', JSON.stringify(cache));


await build({
  entryPoints: ['dist/cli.js'],
  outfile: 'dist/cli.js',
  allowOverwrite: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // yaml is imported only when a fixture file is not in the build-time cache (src/store/yaml-parse.ts).
  external: ['@faker-js/faker', 'yaml'],
  // Minified: compiling the file is a fifth of the start. The source map (next to it; `node
  // --enable-source-maps`) gives readable stack traces of internal errors back.
  minify: true,
  sourcemap: true,
  legalComments: 'none',
  logLevel: 'warning',
  // Some bundled dependencies are CommonJS inside; a bundled ESM file needs `require` for them.
  banner: { js: "import { createRequire as __esignRequire } from 'node:module'; const require = __esignRequire(import.meta.url);" },
});

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


/**
 * zod re-exports every locale (`export * as locales`, in classic and in core), reachable from the `z` namespace object, so no bundler
 * can drop them: 259 KB, a quarter of the bundle, parsed at every start. The sandbox speaks English only (it
 * never calls z.locales.*), so the CLI bundle gets a locales module with just `en`, which zod uses by default.
 */
const englishOnlyZodLocales = {
  name: 'english-only-zod-locales',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic[\\/]external|core[\\/]index)\.js$/.test(args.importer) ? { path: 'zod-locales-en', namespace: 'zod-locales' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, () => ({
      contents: "export { default as en } from 'zod/v4/locales/en.js';",
      resolveDir: process.cwd(),
      loader: 'js',
    }));
  },
};

await build({
  entryPoints: ['dist/cli.js'],
  outfile: 'dist/cli.js',
  allowOverwrite: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Packages imported only on demand stay out of the start bundle (they load from node_modules when asked for):
  // yaml when a fixture file is not in the build-time cache (src/store/yaml-parse.ts), faker for generated
  // fixtures, selfsigned (~300 KB with its ASN.1 stack) only with --tls, Swagger UI on the first GET /docs.
  external: ['@faker-js/faker', 'yaml', 'selfsigned', '@hono/swagger-ui'],
  // Minified: compiling the file is a fifth of the start. The source map (next to it; `node
  // --enable-source-maps`) gives readable stack traces of internal errors back.
  minify: true,
  sourcemap: true,
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [englishOnlyZodLocales],
  // Some bundled dependencies are CommonJS inside; a bundled ESM file needs `require` for them.
  banner: { js: "import { createRequire as __esignRequire } from 'node:module'; const require = __esignRequire(import.meta.url);" },
});

// The compaction worker thread's script, bundled beside the CLI: src/store/persist.ts (inside dist/cli.js now)
// looks for `./compact-worker.js` next to itself, as it finds dist/store/compact-worker.js from dist/store/.
await build({
  entryPoints: ['dist/store/compact-worker.js'],
  outfile: 'dist/compact-worker.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: true,
  sourcemap: true,
  legalComments: 'none',
  logLevel: 'warning',
});

/**
 * Bundles the CLI (dist/cli.js, after tsc) in place: dist/cli.js plus the chunks it imports (dist/bundle-*.js).
 * Loading ~60 ES modules (ours, zod's, hono's, yaml's) one by one is most of the start time; a pre-linked bundle
 * starts in about half the time, which keeps `esign-sandbox` within 1.3× of a bare Hono server's start
 * (docs/benchmarks.md). The library entry (dist/index.js) stays as tsc wrote it. faker stays outside: it is
 * imported only when fixtures generate data.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { parse } from 'yaml';

// This build's id: a hash of the code tsc wrote (the .js files beside a .d.ts), so the same sources give the same
// id. The bundle carries it (ESIGN_BUILD_ID) and so does the fixture cache below: the bundle trusts only the
// validations of its own build (src/fixtures/build-cache.ts).
const hash = createHash('sha1');
const compiled = (f) => f.endsWith('.js') && existsSync(join('dist', f.replace(/\.js$/, '.d.ts')));
for (const file of readdirSync('dist', { recursive: true }).filter(compiled).sort())
  hash.update(file).update(readFileSync(join('dist', file)));
const buildId = hash.digest('hex');

// The bundled fixtures, parsed and validated here with the fixture schema of this very build, by the SHA-1 of
// their text. A file that fails validation is left out, so the start reports its errors as for any other file.
const { fixtureFileSchema } = await import(pathToFileURL(join(process.cwd(), 'dist/fixtures/schema.js')).href);
const files = {};
for (const name of readdirSync('fixtures').filter((f) => /\.ya?ml$/i.test(f))) {
  const text = readFileSync(join('fixtures', name), 'utf8');
  const result = fixtureFileSchema().safeParse(parse(text) ?? {});
  if (result.success) files[createHash('sha1').update(text).digest('hex')] = result.data;
}
writeFileSync('dist/fixtures-checked.json', JSON.stringify({ build: buildId, files }));

/**
 * zod re-exports every locale (`export * as locales`, in classic and in core), reachable from the `z` namespace object, so no bundler
 * can drop them: 259 KB, a quarter of the bundle, parsed at every start. The sandbox speaks English only (it
 * never calls z.locales.*), so the CLI bundle gets a locales module with just `en`, which zod uses by default.
 */
const englishOnlyZodLocales = {
  name: 'english-only-zod-locales',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic[\\/]external|core[\\/]index)\.js$/.test(args.importer)
        ? { path: 'zod-locales-en', namespace: 'zod-locales' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, () => ({
      contents: "export { default as en } from 'zod/v4/locales/en.js';",
      resolveDir: process.cwd(),
      loader: 'js',
    }));
  },
};

/**
 * `z.fromJSONSchema` (JSON Schema → zod) is likewise reachable from `z`, and its module copies every zod export
 * into an object when it loads: about a millisecond of each start, plus 12 KB to compile. The sandbox never
 * calls it (it goes the other way, zod → JSON Schema, for OpenAPI), so the CLI bundle gets a stand-in.
 */
const noZodFromJsonSchema = {
  name: 'no-zod-from-json-schema',
  setup(b) {
    b.onResolve({ filter: /^\.\/from-json-schema\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/]classic[\\/]external\.js$/.test(args.importer)
        ? { path: 'from-json-schema', namespace: 'zod-stub' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-stub' }, () => ({
      contents:
        "export function fromJSONSchema() { throw new Error('z.fromJSONSchema is not part of the esign-sandbox CLI bundle'); }",
      loader: 'js',
    }));
  },
};

// Code the start does not run (the OpenAPI document, built on the first GET /openapi.json) goes into chunks
// that dist/cli.js imports when asked for; code shared with them sits in one chunk the CLI imports at start.
// The chunks sit beside cli.js, so import.meta.url (PACKAGE_ROOT) means the same there.
for (const file of readdirSync('dist').filter((f) => /^bundle-.*\.js(\.map)?$/.test(f))) rmSync(join('dist', file));
await build({
  entryPoints: ['dist/cli.js'],
  outdir: 'dist',
  splitting: true,
  chunkNames: 'bundle-[name]-[hash]',
  allowOverwrite: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Packages imported only on demand stay out of the start bundle (they load from node_modules when asked for):
  // yaml (its named exports must survive a dynamic import, which a bundled CommonJS module's do not), faker for
  // generated fixtures, selfsigned (~300 KB with its ASN.1 stack) only with --tls, sanitize-html (CommonJS) on the first recipient page.
  external: ['@faker-js/faker', 'yaml', 'selfsigned', 'sanitize-html'],
  // Minified: compiling the file is a fifth of the start. The source map (next to it; `node
  // --enable-source-maps`) gives readable stack traces of internal errors back.
  minify: true,
  sourcemap: true,
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [englishOnlyZodLocales, noZodFromJsonSchema],
  // Some bundled dependencies are CommonJS inside; a bundled ESM file needs `require` for them.
  banner: {
    js: "import { createRequire as __esignRequire } from 'node:module'; const require = __esignRequire(import.meta.url);",
  },
  define: { ESIGN_BUILD_ID: JSON.stringify(buildId) },
});

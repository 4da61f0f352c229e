/**
 * Bundles the package's runtime from tsc's output (build/) into dist/: the CLI (dist/cli.js), the library
 * (dist/index.js), the Testcontainers module (dist/testcontainers.js), the host interceptor that
 * `node --import esign-sandbox/register` loads (dist/register.js, with @mswjs/interceptors) and the renderer's
 * worker thread (dist/render/worker.js), plus the chunks they share (dist/bundle-*.js); tsc writes the types (.d.ts) straight
 * into dist/. Two reasons, both in docs/benchmarks.md:
 * - start: loading ~60 ES modules one by one is most of the start time; a pre-linked, minified bundle starts in
 *   about half the time, which keeps `esign-sandbox` within 1.3x of a bare Hono server's start;
 * - install weight: the dependencies are bundled (all MIT or ISC; their licences go into
 *   dist/THIRD-PARTY-LICENSES.txt), so `npx esign-sandbox` installs no pdf-lib (24 MB), docx (23 MB) or faker
 *   packages, only the parts the sandbox uses, minified, without source maps. Code the start does not run (PDF and
 *   DOCX drawing, the OpenAPI document, faker, TLS certificates, the YAML parser) sits in chunks imported on demand.
 * `testcontainers`, `msw` and OpenTelemetry's packages stay outside: optional peer dependencies, imported only by
 * dist/testcontainers.js, dist/msw.js (esign-sandbox/msw, the MSW request handlers) and the chunk that exports
 * spans (src/tracing/otlp.ts, loaded when an OTLP endpoint is set).
 */
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { parse } from 'yaml';

// This build's id: a hash of the code tsc wrote (the .js files beside a .d.ts), so the same sources give the same
// id. The bundle carries it (ESIGN_BUILD_ID) and so does the fixture cache below: the bundle trusts only the
// validations of its own build (src/fixtures/build-cache.ts).
const hash = createHash('sha1');
for (const file of readdirSync('build', { recursive: true })
  .filter((f) => f.endsWith('.js'))
  .sort())
  hash.update(file).update(readFileSync(join('build', file)));
const buildId = hash.digest('hex');

// The bundled fixtures, parsed and validated here with the fixture schema of this very build, by the SHA-1 of
// their text. A file that fails validation is left out, so the start reports its errors as for any other file.
const { fixtureFileSchema } = await import(pathToFileURL(join(process.cwd(), 'build/fixtures/schema.js')).href);
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

/**
 * yaml's Node entry is CommonJS, and a bundled CommonJS module imported with `import()` loses its named exports
 * (`(await import('yaml')).parse` is undefined). Its ES module build (the one it gives bundlers for browsers) is
 * the same code without the CommonJS wrapper, warnings go to console.warn instead of process.emitWarning.
 */
const yamlAsEsm = {
  name: 'yaml-as-esm',
  setup(b) {
    const root = dirname(createRequire(import.meta.url).resolve('yaml/package.json'));
    b.onResolve({ filter: /^yaml$/ }, () => ({ path: join(root, 'browser', 'index.js') }));
  },
};

// Code the start does not run (the OpenAPI document, built on the first GET /openapi.json; the renderers) goes into
// chunks imported when asked for; code shared by the entries sits in chunks they import at start. The chunks sit
// in dist/ beside cli.js and index.js, so import.meta.url (PACKAGE_ROOT, the worker's file) means the same there.
rmSync('dist/render', { recursive: true, force: true });
for (const file of readdirSync('dist').filter((f) =>
  /^(bundle-.*|cli|index|testcontainers|register|msw)\.js(\.map)?$/.test(f),
))
  rmSync(join('dist', file));
const { metafile } = await build({
  entryPoints: {
    cli: 'build/cli.js',
    index: 'build/index.js',
    testcontainers: 'build/testcontainers.js',
    register: 'build/register.js',
    msw: 'build/msw.js',
    'render/worker': 'build/render/worker.js',
  },
  outdir: 'dist',
  splitting: true,
  chunkNames: 'bundle-[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['testcontainers', 'msw', '@opentelemetry/*'],
  // Minified: compiling the file is a fifth of the start. No source map: it would double the package's size.
  minify: true,
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
  plugins: [englishOnlyZodLocales, noZodFromJsonSchema, yamlAsEsm],
  // Some bundled dependencies are CommonJS inside; a bundled ESM file needs `require` for them.
  banner: {
    js: "import { createRequire as __esignRequire } from 'node:module'; const require = __esignRequire(import.meta.url);",
  },
  define: { ESIGN_BUILD_ID: JSON.stringify(buildId) },
});

// The licences of the bundled packages, each once, beside the code that carries them.
// signature_pad ships as its own file (below), the rest inside the bundle.
const pad = dirname(dirname(createRequire(import.meta.url).resolve('signature_pad'))); // …/dist/signature_pad.umd.js
const licences = new Map();
for (const dir of [
  pad,
  ...Object.keys(metafile.inputs).map((i) => i.match(/^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//)?.[1]),
]) {
  if (!dir || licences.has(dir)) continue;
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
  licences.set(
    dir,
    `${manifest.name}@${manifest.version} (${manifest.license})\n\n${file ? readFileSync(join(dir, file), 'utf8').trim() : `Licence: ${manifest.license}`}\n`,
  );
}
writeFileSync(
  'dist/THIRD-PARTY-LICENSES.txt',
  `esign-sandbox bundles these packages (scripts/bundle.mjs):\n\n${[...licences.values()].sort().join(`\n${'-'.repeat(78)}\n\n`)}`,
);

// signature_pad's browser build, served to recipient pages (src/http/pages/assets.ts), with its licence.
mkdirSync('dist/signature_pad', { recursive: true });
copyFileSync(join(pad, 'dist', 'signature_pad.umd.min.js'), 'dist/signature_pad/signature_pad.umd.min.js');

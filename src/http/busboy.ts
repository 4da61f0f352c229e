/**
 * @fastify/busboy's parser, imported by name here so the bundle (scripts/bundle.mjs) keeps it: it is CommonJS, and a
 * bundled CommonJS module imported whole with `import()` loses its named exports. Loaded by the first upload.
 */
export { Busboy } from '@fastify/busboy';

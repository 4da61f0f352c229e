/**
 * selfsigned's `generate`, imported by name here so the bundle (scripts/bundle.mjs) keeps it: selfsigned is
 * CommonJS, and a bundled CommonJS module imported whole with `import()` loses its named exports.
 */
export { generate } from 'selfsigned';

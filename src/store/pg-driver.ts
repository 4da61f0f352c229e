/**
 * node-postgres (`pg`), imported by name here so the bundle (scripts/bundle.mjs) keeps what the team mode takes: pg
 * is CommonJS, and a bundled CommonJS module imported whole with `import()` loses its named exports. Loaded only
 * with `--store postgres://…` (store/postgres.ts).
 */
export { Client } from 'pg';

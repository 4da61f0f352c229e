/**
 * Runs before every test file (vitest.config.ts, `setupFiles`): makes Node's own undici the dispatcher of `fetch` in
 * this worker before any file can load another.
 *
 * Workers run many files each (`isolate: false`), so a global one file sets stays for the files after it. undici 7
 * (testcontainers' own copy, loaded by test/container/testcontainers.test.ts through esign-sandbox/testcontainers)
 * installs its Agent as the process's dispatcher (`Symbol.for('undici.globalDispatcher.1')`, the one Node's fetch
 * reads) when none is there yet, and its parser errors carry no `code` (7.30.2): `fetch` of a `garbage` or
 * `malformed-chunk` fault then met `cause.code` undefined instead of HPE_INVALID_CONSTANT / HPE_INVALID_CHUNK_SIZE in
 * every later file of that worker, on the runs that placed the container test first in it (docs/errors.md).
 * Node's fetch creates its dispatcher within the call, and a `data:` URL touches no network; undici 7 leaves an existing
 * one in place.
 */
await (await fetch('data:,')).arrayBuffer();

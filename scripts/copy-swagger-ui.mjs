/**
 * Copies the files of Swagger UI that GET /docs uses into dist/swagger-ui/, with its licence and version, so the
 * package ships the API reference's assets in its own build: `swagger-ui-dist` is a devDependency, and users do not
 * install it (nor `@scarf/scarf`, its install-time telemetry). src/openapi/routes.ts serves them from there.
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const FILES = ['swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-32x32.png', 'LICENSE', 'NOTICE'];

const manifest = createRequire(import.meta.url).resolve('swagger-ui-dist/package.json');
const source = dirname(manifest);
const { version, license } = JSON.parse(readFileSync(manifest, 'utf8'));
const target = join('dist', 'swagger-ui');
rmSync(target, { recursive: true, force: true });
mkdirSync(target, { recursive: true });
for (const file of FILES) copyFileSync(join(source, file), join(target, file));
writeFileSync(join(target, 'version.json'), `${JSON.stringify({ name: 'swagger-ui-dist', version, license })}\n`);

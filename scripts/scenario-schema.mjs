// Writes scenarios/scenario.schema.json from the zod schema (run by `npm run schema`, after the build).
// test/scenarios/scenario-schema.test.ts fails when the checked-in file and the zod schema disagree.
import { writeFileSync } from 'node:fs';
import { scenarioJsonSchemaText } from '../build/scenarios/schema.js';

const file = new URL('../scenarios/scenario.schema.json', import.meta.url);
writeFileSync(file, scenarioJsonSchemaText());
console.log(`wrote ${file.pathname}`);

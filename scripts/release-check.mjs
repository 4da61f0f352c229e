#!/usr/bin/env node
/**
 * `node scripts/release-check.mjs v1.2.3`: the first step of each release job (.github/workflows/release.yml). A
 * release is one tag, one version and one changelog section: the tag must be `v` + package.json's version, and
 * CHANGELOG.md must have a non-empty `## [1.2.3]` section, so the image, the npm package and the notes never
 * disagree. Prints what is wrong and exits 1; when all agree, prints that section (the release's notes).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The lines of CHANGELOG.md's `## [version]` section, without its heading; undefined when it has none. */
export function changelogSection(changelog, version) {
  const lines = changelog.split('\n');
  const heading = lines.findIndex((line) => line.startsWith(`## [${version}]`));
  if (heading < 0) return undefined;
  const rest = lines.slice(heading + 1);
  const end = rest.findIndex((line) => line.startsWith('## '));
  return (end < 0 ? rest : rest.slice(0, end)).join('\n').trim();
}

/** Problems, as sentences; empty when the tag, the version and the changelog agree. */
export function releaseProblems(tag, packageJson, changelog) {
  const { version } = JSON.parse(packageJson);
  const problems = [];
  if (tag !== `v${version}`) problems.push(`the tag ${tag || '(none)'} is not v${version}, package.json's version`);
  const section = changelogSection(changelog, version);
  if (section === undefined) problems.push(`CHANGELOG.md has no "## [${version}]" section`);
  else if (section === '') problems.push(`CHANGELOG.md's "## [${version}]" section is empty`);
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = join(import.meta.dirname, '..');
  const problems = releaseProblems(
    process.argv[2] ?? '',
    readFileSync(join(root, 'package.json'), 'utf8'),
    readFileSync(join(root, 'CHANGELOG.md'), 'utf8'),
  );
  for (const problem of problems) console.error(`release: ${problem}`);
  process.exitCode = problems.length ? 1 : 0;
  if (!problems.length) {
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    process.stdout.write(`${changelogSection(readFileSync(join(root, 'CHANGELOG.md'), 'utf8'), version)}\n`);
  }
}

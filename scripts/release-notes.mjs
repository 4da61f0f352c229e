#!/usr/bin/env node
/**
 * The notes of one release, read from CHANGELOG.md: `node scripts/release-notes.mjs 1.2.3` (or `v1.2.3`, a tag)
 * prints the body of the section `## [1.2.3] - YYYY-MM-DD`. It fails, saying why, unless that version is
 * package.json's and CHANGELOG.md has a section for it with at least one entry: a tag whose notes or version were
 * forgotten publishes nothing (.github/workflows/release.yml runs it first). README, "Development", says how the
 * file is kept; test/ci/changelog.test.ts checks the file's shape.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SEMVER = /^\d+\.\d+\.\d+$/;

/**
 * The sections of a changelog in file order: `{version, date, body}`, where `version` is `Unreleased` or x.y.z, and
 * `date` the release's date (undefined for Unreleased). A `## ` heading of another shape is an error.
 */
export function changelogSections(text) {
  const sections = [];
  let current;
  for (const line of text.split('\n')) {
    if (line.startsWith('## ')) {
      const m = /^## \[(Unreleased|\d+\.\d+\.\d+)\](?: - (\d{4}-\d{2}-\d{2}))?$/.exec(line);
      if (!m) throw new Error(`CHANGELOG.md: "${line}" is not "## [Unreleased]" or "## [x.y.z] - YYYY-MM-DD"`);
      if ((m[1] === 'Unreleased') !== (m[2] === undefined))
        throw new Error(`CHANGELOG.md: "${line}": a release has a date, Unreleased none`);
      current = { version: m[1], date: m[2], lines: [] };
      sections.push(current);
    } else if (current) current.lines.push(line);
  }
  return sections.map(({ lines, ...s }) => ({ ...s, body: lines.join('\n').trim() }));
}

/** The notes of `version` (x.y.z or vx.y.z), checked against package.json's `packageVersion`. */
export function releaseNotes(changelog, version, packageVersion) {
  const wanted = version.replace(/^v/, '');
  if (!SEMVER.test(wanted)) throw new Error(`"${version}" is not a version like 1.2.3 or a tag like v1.2.3`);
  if (wanted !== packageVersion)
    throw new Error(`the tag says ${wanted} but package.json says ${packageVersion}: set package.json's version`);
  const section = changelogSections(changelog).find((s) => s.version === wanted);
  if (!section) throw new Error(`CHANGELOG.md has no section "## [${wanted}] - YYYY-MM-DD": move Unreleased into it`);
  if (!/^- /m.test(section.body)) throw new Error(`CHANGELOG.md's section ${wanted} lists no change`);
  return `${section.body}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const version = process.argv[2];
  if (!version) {
    process.stderr.write('usage: node scripts/release-notes.mjs <version or tag>\n');
    process.exit(2);
  }
  try {
    const changelog = readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8');
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    process.stdout.write(releaseNotes(changelog, version, pkg.version));
  } catch (error) {
    process.stderr.write(`release-notes: ${error.message}\n`);
    process.exit(1);
  }
}

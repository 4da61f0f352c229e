/**
 * CHANGELOG.md, package.json's version and the release notes move together (README, "Development"): the newest
 * release section is package.json's version, sections follow Keep a Changelog, and scripts/release-check.mjs, which
 * each release job runs on a tag, prints that section as the release's notes (its refusals:
 * test/ci/release-workflow.test.ts).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

type Section = { version: string; date?: string; body: string };

const ROOT = join(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const changelog = read('CHANGELOG.md');
const { version } = JSON.parse(read('package.json')) as { version: string };

/** The `## ` sections in file order; a heading other than `## [Unreleased]` or `## [x.y.z] - YYYY-MM-DD` fails. */
function sectionsOf(text: string): Section[] {
  const parts = text.split(/^(?=## )/m).slice(1);
  return parts.map((part) => {
    const [heading, ...rest] = part.split('\n');
    const m = /^## \[(Unreleased|\d+\.\d+\.\d+)\](?: - (\d{4}-\d{2}-\d{2}))?$/.exec(heading!);
    expect(m, heading).not.toBeNull();
    expect(m![1] === 'Unreleased', `${heading}: a release has a date, Unreleased none`).toBe(m![2] === undefined);
    return { version: m![1]!, ...(m![2] ? { date: m![2] } : {}), body: rest.join('\n').trim() };
  });
}

const sections = sectionsOf(changelog);
const releases = sections.filter((s) => s.version !== 'Unreleased');
const numbers = (v: string) => v.split('.').map(Number);
const newer = (a: string, b: string) => {
  const [x, y] = [numbers(a), numbers(b)];
  const i = x.findIndex((n, k) => n !== y[k]);
  return i >= 0 && x[i]! > y[i]!;
};
const HEADINGS = ['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security'];

describe('CHANGELOG.md', () => {
  it('opens with Unreleased, then the releases newest first, each dated no later than the one above it', () => {
    expect(sections[0]?.version).toBe('Unreleased');
    expect(releases.length).toBeGreaterThan(0);
    for (let i = 1; i < releases.length; i++) {
      expect(newer(releases[i - 1]!.version, releases[i]!.version), releases[i]!.version).toBe(true);
      expect(releases[i - 1]!.date! >= releases[i]!.date!).toBe(true);
    }
  });

  it("has package.json's version as its newest release", () => {
    expect(releases[0]!.version).toBe(version);
  });

  it('groups each release under Keep a Changelog headings, each with its entries', () => {
    for (const release of releases) {
      const headings = [...release.body.matchAll(/^### (.+)$/gm)].map((m) => m[1]);
      expect(headings.length, release.version).toBeGreaterThan(0);
      for (const heading of headings) expect(HEADINGS, `${release.version}: ${heading}`).toContain(heading);
      for (const group of release.body.split(/^### .+$/m).slice(1))
        expect(group, `${release.version}: a heading with no entry`).toMatch(/^- /m);
    }
  });

  it('names the same version wherever the docs and examples show it', () => {
    for (const path of [
      'README.md',
      'docs/webhooks.md',
      'docs/ci.md',
      'src/testcontainers.ts',
      'src/control-table/state.ts',
    ]) {
      for (const [, shown] of read(path).matchAll(/esign-sandbox[ /:](\d+\.\d+\.\d+)/g))
        expect(shown, path).toBe(version);
    }
  });
});

describe('the release notes (scripts/release-check.mjs)', () => {
  it("are the tag's section of CHANGELOG.md, without its heading", () => {
    const notes = execFileSync(process.execPath, [join(ROOT, 'scripts/release-check.mjs'), `v${version}`], {
      encoding: 'utf8',
    });
    expect(notes).toBe(`${releases[0]!.body}\n`);
    expect(notes).not.toMatch(/^## /m);
  });
});

/**
 * CHANGELOG.md, package.json's version and the release notes move together (README, "Development"): the newest
 * release section is package.json's version, sections follow Keep a Changelog, and scripts/release-notes.mjs, which
 * the release workflow runs on a tag, publishes that section or refuses.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { changelogSections, releaseNotes } from '../../scripts/release-notes.mjs';

type Section = { version: string; date?: string; body: string };

const ROOT = join(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const changelog = read('CHANGELOG.md');
const { version } = JSON.parse(read('package.json')) as { version: string };
const sections = changelogSections(changelog) as Section[];
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

describe('the release notes (scripts/release-notes.mjs)', () => {
  it("are the tag's section of CHANGELOG.md, without its heading", () => {
    const notes = execFileSync(process.execPath, [join(ROOT, 'scripts/release-notes.mjs'), `v${version}`], {
      encoding: 'utf8',
    });
    expect(notes).toBe(`${releases[0]!.body}\n`);
    expect(notes).not.toMatch(/^## /m);
  });

  it('refuse a tag that is not package.json version, a version with no section, and a section with no entry', () => {
    const cases: Array<[string, string, string, RegExp]> = [
      [changelog, 'v9.9.9', version, /package\.json says/],
      ['## [Unreleased]\n\n- soon\n', 'v1.0.0', '1.0.0', /no section "## \[1\.0\.0\]/],
      ['## [1.0.0] - 2026-01-01\n\n### Added\n', '1.0.0', '1.0.0', /lists no change/],
      [changelog, 'latest', version, /not a version/],
    ];
    for (const [text, tag, pkg, message] of cases) expect(() => releaseNotes(text, tag, pkg), tag).toThrow(message);
  });

  it('exit 1 naming the reason when run for a tag that does not match', () => {
    let stderr = '';
    try {
      execFileSync(process.execPath, [join(ROOT, 'scripts/release-notes.mjs'), 'v99.0.0'], { stdio: 'pipe' });
    } catch (error) {
      const e = error as { status: number; stderr: Buffer };
      expect(e.status).toBe(1);
      stderr = e.stderr.toString();
    }
    expect(stderr).toMatch(/^release-notes: the tag says 99\.0\.0 but package\.json says /);
  });

  it('refuse a changelog heading of another shape', () => {
    expect(() => changelogSections('## 1.0.0\n')).toThrow(/is not "## \[Unreleased\]"/);
    expect(() => changelogSections('## [1.0.0]\n')).toThrow(/a release has a date/);
  });
});

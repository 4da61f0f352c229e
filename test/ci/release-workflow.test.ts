/**
 * .github/workflows/release.yml cannot run here (no registry, no GitHub runner), so the suite checks it twice:
 * - against the GitHub Actions workflow syntax, written below as a zod schema from GitHub's workflow reference
 *   (top-level keys, jobs, steps, permissions, triggers; unknown keys rejected, so a typo fails). SchemaStore's
 *   github-workflow.json is not vendored: nothing fetched from outside is committed to this repository;
 * - for what docs/ci.md promises: a version tag builds linux/amd64 and linux/arm64, pushes
 *   ghcr.io/<owner>/esign-sandbox with the version and `latest` tags, and attaches an SBOM; the same tag publishes
 *   the npm package with provenance; both first check the tag against package.json and CHANGELOG.md.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
// @ts-expect-error: a plain .mjs script, without types
import { releaseProblems } from '../../scripts/release-check.mjs';

const ROOT = join(import.meta.dirname, '..', '..');
const text = readFileSync(join(ROOT, '.github/workflows/release.yml'), 'utf8');
const workflow = parse(text);

const expression = z.string().regex(/\$\{\{[^}]+\}\}/);
const scalar = z.union([z.string(), z.number(), z.boolean()]);
const env = z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), scalar);
const access = z.enum(['read', 'write', 'none']);
const permissions = z.union([
  z.enum(['read-all', 'write-all']),
  z
    .object({
      actions: access,
      attestations: access,
      checks: access,
      contents: access,
      deployments: access,
      discussions: access,
      'id-token': access,
      issues: access,
      models: access,
      packages: access,
      pages: access,
      'pull-requests': access,
      'repository-projects': access,
      'security-events': access,
      statuses: access,
    })
    .partial()
    .strict(),
]);
const globs = z.array(z.string().min(1)).min(1);
const pushTrigger = z
  .object({
    branches: globs,
    'branches-ignore': globs,
    tags: globs,
    'tags-ignore': globs,
    paths: globs,
    'paths-ignore': globs,
  })
  .partial()
  .strict()
  .nullable();
const on = z.union([
  z.string(),
  z.array(z.string()),
  z
    .object({
      push: pushTrigger,
      pull_request: pushTrigger,
      workflow_dispatch: z
        .object({ inputs: z.record(z.string(), z.unknown()) })
        .partial()
        .strict()
        .nullable(),
      release: z
        .object({ types: z.array(z.string()) })
        .partial()
        .strict()
        .nullable(),
      schedule: z.array(z.object({ cron: z.string() }).strict()),
    })
    .partial()
    .strict(),
]);
const step = z
  .object({
    id: z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]*$/),
    if: z.union([z.string(), z.boolean()]),
    name: z.string(),
    uses: z.string().regex(/^([\w.-]+\/[\w./-]+@[\w.-]+|docker:\/\/.+|\.\/.+)$/),
    run: z.string(),
    'working-directory': z.string(),
    shell: z.string(),
    with: z.record(z.string(), scalar),
    env,
    'continue-on-error': z.union([z.boolean(), expression]),
    'timeout-minutes': z.union([z.number(), expression]),
  })
  .partial()
  .strict()
  .refine((s) => (s.uses === undefined) !== (s.run === undefined), 'a step has exactly one of uses and run');
const job = z
  .object({
    name: z.string().optional(),
    permissions: permissions.optional(),
    needs: z.union([z.string(), z.array(z.string())]).optional(),
    if: z.union([z.string(), z.boolean()]).optional(),
    'runs-on': z.union([
      z.string(),
      z.array(z.string()),
      z.object({ group: z.string(), labels: z.unknown() }).partial(),
    ]),
    environment: z.unknown().optional(),
    concurrency: z.unknown().optional(),
    outputs: z.record(z.string(), z.string()).optional(),
    env: env.optional(),
    defaults: z.unknown().optional(),
    'timeout-minutes': z.union([z.number(), expression]).optional(),
    strategy: z.unknown().optional(),
    'continue-on-error': z.union([z.boolean(), expression]).optional(),
    container: z.unknown().optional(),
    services: z.record(z.string(), z.unknown()).optional(),
    steps: z.array(step).min(1),
  })
  .strict();
const workflowSchema = z
  .object({
    name: z.string().optional(),
    'run-name': z.string().optional(),
    on,
    permissions: permissions.optional(),
    env: env.optional(),
    defaults: z.unknown().optional(),
    concurrency: z.unknown().optional(),
    jobs: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]*$/), job),
  })
  .strict();

/** A GitHub expression as the workflow writes it, `${{ … }}`. */
const gh = (e: string) => `\${{ ${e} }}`;

type Step = z.infer<typeof step>;
const steps = (): Step[] => Object.values(workflowSchema.parse(workflow).jobs).flatMap((j) => j.steps);
const action = (name: string) => steps().find((s) => s.uses?.startsWith(`${name}@`));

describe('the release workflow', () => {
  it('is a valid GitHub Actions workflow', () => {
    const result = workflowSchema.safeParse(workflow);
    expect(result.error?.issues ?? []).toEqual([]);
    // Every expression is closed, and every `${{ steps.X.… }}` names a step id that exists.
    expect(text.match(/\$\{\{/g)?.length).toBe(text.match(/\$\{\{[^}]*\}\}/g)?.length);
    const ids = new Set(steps().map((s) => s.id));
    for (const [, id] of text.matchAll(/steps\.([\w-]+)\./g)) expect(ids, id).toContain(id);
  });

  it('rejects what GitHub would reject: the schema is not a rubber stamp', () => {
    const broken = [
      { ...workflow, job: workflow.jobs },
      { ...workflow, jobs: { image: { ...workflow.jobs.image, 'runs-on': undefined } } },
      { ...workflow, jobs: { image: { ...workflow.jobs.image, steps: [{ uses: 'actions/checkout@v4', run: 'x' }] } } },
      { ...workflow, permissions: { packages: 'push' } },
    ];
    for (const w of broken) expect(workflowSchema.safeParse(w).success).toBe(false);
  });

  it('runs on a version tag with the rights to push a package', () => {
    expect(workflow.on.push.tags).toEqual(['v*.*.*']);
    expect(workflow.permissions).toMatchObject({ packages: 'write', contents: 'read' });
    expect(action('docker/login-action')?.with).toMatchObject({
      registry: 'ghcr.io',
      password: gh('secrets.GITHUB_TOKEN'),
    });
  });

  it('builds amd64 and arm64 and pushes ghcr.io/<owner>/esign-sandbox as the version and latest, with an SBOM', () => {
    expect(action('docker/setup-qemu-action')).toBeDefined();
    expect(action('docker/setup-buildx-action')).toBeDefined();
    const meta = action('docker/metadata-action')!.with!;
    expect(meta.images).toBe(`ghcr.io/${gh('github.repository_owner')}/esign-sandbox`);
    expect(String(meta.tags).trim().split('\n')).toEqual(['type=semver,pattern={{version}}', 'type=raw,value=latest']);
    const build = action('docker/build-push-action')!.with!;
    expect(String(build.platforms).split(',')).toEqual(['linux/amd64', 'linux/arm64']);
    expect(build).toMatchObject({ push: true, sbom: true, tags: gh('steps.meta.outputs.tags') });
  });

  it('builds the Dockerfile that the container tests build (the repository root is the context)', () => {
    expect(action('docker/build-push-action')!.with!.context).toBe('.');
    expect(readFileSync(join(ROOT, 'docs/ci.md'), 'utf8')).toContain('ghcr.io/<owner>/esign-sandbox');
  });
});

describe('the npm package of a release', () => {
  const npm = () => workflowSchema.parse(workflow).jobs.npm!;

  it('publishes the tagged commit to the npm registry with provenance (an OIDC token) and the npm token', () => {
    expect(npm().permissions).toEqual({ contents: 'read', 'id-token': 'write' });
    const setup = npm().steps.find((s) => s.uses?.startsWith('actions/setup-node@'))!;
    expect(setup.with).toMatchObject({ 'registry-url': 'https://registry.npmjs.org' });
    const publish = npm().steps.find((s) => s.run?.startsWith('npm publish'))!;
    expect(publish.run).toBe('npm publish --provenance --access public');
    expect(publish.env).toEqual({ NODE_AUTH_TOKEN: gh('secrets.NPM_TOKEN') });
    // npm ci builds dist/ before publish packs it.
    const runs = npm().steps.map((s) => s.run ?? s.uses);
    expect(runs.findIndex((r) => r?.startsWith('npm ci'))).toBeLessThan(runs.indexOf(publish.run));
  });

  it('checks, in every job alike, that the tag is the version and the changelog has it', () => {
    for (const job of Object.values(workflowSchema.parse(workflow).jobs))
      expect(job.steps.some((s) => s.run?.startsWith('node scripts/release-check.mjs "$GITHUB_REF_NAME"'))).toBe(true);
  });

  it("makes the GitHub release with the version's CHANGELOG.md section as its notes, and no other right", () => {
    const notes = workflowSchema.parse(workflow).jobs.notes!;
    expect(notes.permissions).toEqual({ contents: 'write' });
    const runs = notes.steps.map((s) => s.run);
    const check = runs.indexOf('node scripts/release-check.mjs "$GITHUB_REF_NAME" > release-notes.md');
    const release = runs.indexOf(
      'gh release create "$GITHUB_REF_NAME" --title "$GITHUB_REF_NAME" --notes-file release-notes.md',
    );
    expect(check).toBeGreaterThan(0);
    expect(release).toBeGreaterThan(check);
    expect(notes.steps[release]!.env).toEqual({ GH_TOKEN: gh('secrets.GITHUB_TOKEN') });
  });

  it.each([
    ['v1.2.0', '## [1.2.0] - 2026-12-01\n\n- A change\n\n## [1.1.0]\n- Older', []],
    ['v1.2.1', '## [1.2.0]\n- A change', ["the tag v1.2.1 is not v1.2.0, package.json's version"]],
    ['v1.2.0', '## [Unreleased]\n- A change', ['CHANGELOG.md has no "## [1.2.0]" section']],
    ['v1.2.0', '## [1.2.0]\n\n## [1.1.0]\n- Older', ['CHANGELOG.md\'s "## [1.2.0]" section is empty']],
  ])('release-check: tag %s against package 1.2.0 and its changelog', (tag, changelog, problems) => {
    expect(releaseProblems(tag, JSON.stringify({ version: '1.2.0' }), changelog)).toEqual(problems);
  });
});

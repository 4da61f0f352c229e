/**
 * The report as people and CI read it (docs/readiness.md, "Formats"): JUnit XML (a test case per check, a failure
 * per error finding, untested cases skipped), Markdown for a CI step summary, and plain text for a terminal.
 * All three are made from the JSON report, so the CLI makes them from what the control API answered.
 */
import type { Evidence } from './check.js';
import type { Finding, ReadinessReport } from './report.js';
import { escapeMarkup } from '../core/markup.js';

/** One evidence item in a line: what it is, where to find it, and what it shows. */
export function evidenceLine(e: Evidence): string {
  const what =
    e.type === 'request'
      ? `request ${e.id}: ${e.method} ${e.path}${e.action !== undefined ? ` (${e.action})` : ''} → ${e.status}`
      : `delivery ${e.id} attempt ${e.attempt} (${e.trigger}) ${e.event} → ${e.status ?? e.error ?? 'no answer'}`;
  return `${what} at ${e.at}${e.detail ? `: ${e.detail}` : ''}`;
}

function scopeOf(report: ReadinessReport): string {
  return report.tenant !== undefined ? `tenant ${report.tenant}` : 'the whole sandbox';
}

function tally(report: ReadinessReport): string {
  const { errors, warnings, infos } = report.summary;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `${plural(errors, 'error')}, ${plural(warnings, 'warning')}, ${infos} never tried; from ${plural(report.observed.requests, 'request')} and ${plural(report.observed.deliveries, 'delivery').replace('deliverys', 'deliveries')}`;
}

/** Text as XML character data or an attribute; characters XML 1.0 cannot hold (controls, lone surrogates) dropped. */
function xml(text: string): string {
  let out = '';
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    const allowed =
      c === 9 || c === 10 || c === 13 || (c >= 0x20 && c < 0xd800) || (c > 0xdfff && c < 0xfffe) || c > 0xffff;
    if (allowed) out += ch;
  }
  return escapeMarkup(out);
}

/** Said once under the hard cases never tried. */
export const GO_LIVE_HINT = 'The bundled `go-live` scenario tries every hard case in one run.';

/** Said when there is nothing to judge. */
function emptyNote(report: ReadinessReport): string[] {
  if (report.observed.requests > 0) return [];
  const whose = report.tenant !== undefined ? ' of this tenant' : '';
  return [`The sandbox saw no /api request${whose}: run the integration's tests against it first.`];
}

const howToTry = (f: Finding) => f.advice.replace(/^To try it: /, '');

function findingText(f: Finding): string {
  const more = f.count > f.evidence.length && f.evidence.length > 0 ? [`… ${f.count} in all`] : [];
  return [...f.evidence.map(evidenceLine), ...more, `Advice: ${f.advice}`].join('\n');
}

export function toJUnit(report: ReadinessReport): string {
  const findings = new Map(report.findings.map((f) => [f.id, f]));
  const failures = report.findings.filter((f) => f.severity === 'error').length;
  const skipped = report.checks.filter(
    (c) => c.result === 'ignored' || (c.result === 'found' && c.severity === 'info'),
  ).length;
  const suite = `esign-sandbox readiness (${scopeOf(report)})`;
  const cases = report.checks.map((c) => {
    const f = findings.get(c.id);
    const open = `    <testcase classname="esign-sandbox.readiness" name="${xml(`${c.id}: ${c.title}`)}">`;
    let body: string;
    if (c.result === 'ignored') body = `      <skipped message="left out by the report's options"/>`;
    else if (!f) return `${open.slice(0, -1)}/>`;
    else if (f.severity === 'error')
      body = `      <failure type="${xml(f.id)}" message="${xml(`${f.title} (${f.count})`)}">${xml(findingText(f))}</failure>`;
    else if (f.severity === 'info') body = `      <skipped message="${xml(`${f.title}. ${f.advice}`)}"/>`;
    else body = `      <system-out>${xml(`warning: ${f.title} (${f.count})\n${findingText(f)}`)}</system-out>`;
    return `${open}\n${body}\n    </testcase>`;
  });
  const counts = `tests="${report.checks.length}" failures="${failures}" errors="0" skipped="${skipped}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="esign-sandbox readiness" ${counts}>`,
    `  <testsuite name="${xml(suite)}" ${counts} timestamp="${xml(report.at.replace(/\.\d+Z$/, 'Z'))}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

const MARK = { error: '❌', warning: '⚠️', info: 'ℹ️' } as const;

/** Markdown text: `|` and line breaks would break a table cell. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

export function toMarkdown(report: ReadinessReport): string {
  const ready = report.verdict === 'ready';
  const lines = [
    `## Go-live readiness: ${ready ? '✅ ready' : '❌ not ready'}`,
    '',
    `${scopeOf(report)[0]!.toUpperCase()}${scopeOf(report).slice(1)}: ${tally(report)} (docs/readiness.md).`,
    ...emptyNote(report).flatMap((line) => [line, '']),
  ];
  const judged = report.findings.filter((f) => f.severity !== 'info');
  for (const f of judged) {
    lines.push(`### ${MARK[f.severity]} \`${f.id}\`: ${f.title} (${f.count})`, '');
    for (const e of f.evidence) lines.push(`- ${evidenceLine(e)}`);
    if (f.count > f.evidence.length) lines.push(`- … ${f.count} in all`);
    lines.push('', `**Advice:** ${f.advice}`, '');
  }
  const untested = report.findings.filter((f) => f.severity === 'info');
  if (untested.length > 0) {
    lines.push('### Never tried', '', '| check | how to try it |', '|---|---|');
    for (const f of untested) lines.push(`| \`${f.id}\` | ${cell(howToTry(f))} |`);
    lines.push('', GO_LIVE_HINT, '');
  }
  const { operations, errors, events } = report.coverage;
  lines.push('<details><summary>Coverage</summary>', '', '| operation | calls |', '|---|---|');
  for (const o of operations)
    lines.push(`| ${cell(`${o.method} ${o.path}${o.action ? ` ${o.action}` : ''}`)} | ${o.count} |`);
  if (errors.length > 0) {
    lines.push('', '| error met | times |', '|---|---|');
    for (const e of errors) lines.push(`| ${e.status} ${cell(e.message)} | ${e.count} |`);
  }
  if (events.length > 0) {
    lines.push('', '| event | delivered | accepted |', '|---|---|---|');
    for (const e of events) lines.push(`| ${e.event} | ${e.delivered} | ${e.accepted} |`);
  }
  lines.push('', '</details>', '');
  return lines.join('\n');
}

/** For a terminal: the verdict, each finding with its evidence and advice, the hard cases never tried. */
export function toText(report: ReadinessReport): string {
  const lines = [
    `Readiness of ${scopeOf(report)}: ${report.verdict === 'ready' ? 'READY' : 'NOT READY'} (${tally(report)})`,
    ...emptyNote(report),
  ];
  for (const f of report.findings.filter((x) => x.severity !== 'info')) {
    lines.push('', `${f.severity.toUpperCase().padEnd(8)}${f.id}: ${f.title} (${f.count})`);
    for (const e of f.evidence) lines.push(`        ${evidenceLine(e)}`);
    if (f.count > f.evidence.length) lines.push(`        … ${f.count} in all`);
    lines.push(`        Advice: ${f.advice}`);
  }
  const untested = report.findings.filter((f) => f.severity === 'info');
  if (untested.length > 0) {
    lines.push('', 'Never tried:');
    for (const f of untested) lines.push(`  ${f.id}: ${howToTry(f)}`);
    lines.push(`  ${GO_LIVE_HINT}`);
  }
  return lines.join('\n');
}

/**
 * The dashboard's Readiness tab (docs/pages.md, docs/readiness.md): the verdict for the whole sandbox or the picked
 * tenant, each finding with its evidence linked to the request or delivery it names (the Requests and Webhooks tabs
 * open on it), its advice, the hard cases never tried, the coverage, and the report as JUnit XML and Markdown.
 */
import { html } from 'hono/html';
import type { Tenant } from '../../control/control.js';
import { tenantPrefix } from '../../core/tenant-path.js';
import type { Evidence } from '../../readiness/check.js';
import { evidenceLine } from '../../readiness/formats.js';
import type { Finding, ReadinessReport } from '../../readiness/report.js';
import { DASHBOARD as BASE, type Html } from './layout.js';

const BADGE = { error: 'failed', warning: 'pending', info: '' } as const;

export function readinessTab(report: ReadinessReport, tenant: Tenant | undefined): Html {
  const scoped = tenant ? `&tenant=${encodeURIComponent(tenant.apiKey)}` : '';
  const link = (e: Evidence) =>
    e.type === 'request'
      ? `${BASE}?tab=requests&id=${e.id}${scoped}#request-${e.id}`
      : `${BASE}?tab=webhooks&delivery=${encodeURIComponent(e.id)}${scoped}#delivery-${e.id}`;
  const judged = report.findings.filter((f) => f.severity !== 'info');
  const untested = report.findings.filter((f) => f.severity === 'info');
  const api = `/__sandbox${tenant ? tenantPrefix(tenant.apiKey) : ''}/report`;
  const { errors, warnings } = report.summary;
  return html`<section aria-labelledby="readiness-title">
  <h2 id="readiness-title">Go-live readiness</h2>
  <p class="notice ${report.verdict === 'ready' ? 'ok' : 'bad'}" data-verdict="${report.verdict}">
    <strong>${report.verdict === 'ready' ? 'Ready' : 'Not ready'}</strong>: ${errors} error(s), ${warnings} warning(s),
    ${untested.length} hard case(s) never tried, from ${report.observed.requests} /api request(s) and
    ${report.observed.deliveries} webhook deliveries${tenant ? ` of tenant ${tenant.apiKey}` : ''}.
    <a href="${api}?format=junit">JUnit XML</a> · <a href="${api}?format=markdown">Markdown</a> · <a href="${api}">JSON</a>
  </p>
  ${judged.length === 0 ? html`<p class="muted">No error and no warning: nothing the integration did is reported.</p>` : ''}
  ${judged.map((f) => finding(f, link))}
  ${
    untested.length
      ? html`<h3>Never tried</h3><table><thead><tr><th>Check</th><th>How to try it</th></tr></thead><tbody>
  ${untested.map((f) => html`<tr data-finding="${f.id}"><td>${f.title.replace(/^Never tried: /, '')}<br /><span class="mono muted">${f.id}</span></td><td>${prose(f.advice.replace(/^To try it: /, ''))}</td></tr>`)}
  </tbody></table><p class="muted">The bundled <strong>go-live</strong> scenario tries every hard case in one run (Scenarios tab).</p>`
      : ''
  }
  <details class="card"><summary>Coverage: ${report.coverage.operations.length} operation(s) called, ${report.coverage.errors.length} error answer(s) met, ${report.coverage.events.length} event kind(s) delivered</summary>
    <table><thead><tr><th>Operation</th><th>Calls</th></tr></thead><tbody>
    ${report.coverage.operations.map((o) => html`<tr><td class="mono">${o.method} ${o.path} ${o.action ?? ''}</td><td>${o.count}</td></tr>`)}
    </tbody></table>
    <table><thead><tr><th>Error met</th><th>Times</th></tr></thead><tbody>
    ${report.coverage.errors.map((e) => html`<tr><td>${e.status} ${e.message}</td><td>${e.count}</td></tr>`)}
    </tbody></table>
    <table><thead><tr><th>Event</th><th>Delivered</th><th>Accepted</th></tr></thead><tbody>
    ${report.coverage.events.map((e) => html`<tr><td>${e.event}</td><td>${e.delivered}</td><td>${e.accepted}</td></tr>`)}
    </tbody></table>
  </details>
</section>`;
}

/** Advice as written (`--rate-limit 10/min` in backticks), the backticked parts as code. */
function prose(text: string): Html[] {
  return text.split('`').map((part, i) => (i % 2 === 1 ? html`<code>${part}</code>` : html`${part}`));
}

function finding(f: Finding, link: (e: Evidence) => string): Html {
  return html`<div class="card" data-finding="${f.id}">
  <h3><span class="badge ${BADGE[f.severity]}">${f.severity}</span> ${f.title} <span class="mono muted">${f.id}</span> <span class="muted">× ${f.count}</span></h3>
  <ul>${f.evidence.map((e) => html`<li><a href="${link(e)}">${evidenceLine(e)}</a></li>`)}</ul>
  ${f.count > f.evidence.length ? html`<p class="muted">… ${f.count} in all</p>` : ''}
  <p><strong>Advice:</strong> ${prose(f.advice)}</p>
</div>`;
}

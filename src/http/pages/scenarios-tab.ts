/**
 * The dashboard's Scenarios tab: the loaded scenarios with their log, the bundled ones with what each does and a
 * Load button, and a form to paste a scenario's YAML. Both forms post to the dashboard (dashboard.ts), which loads
 * through the scenario engine, as POST /__sandbox/scenarios does.
 */
import { html } from 'hono/html';
import type { BundledScenario, ScenarioSummary } from '../../control/sandbox-control.js';
import { peopleTime } from '../../core/time-format.js';
import { DASHBOARD as BASE, type Html } from './layout.js';

export function scenariosTab(list: { bundled: BundledScenario[]; active: ScenarioSummary[] }, here: string): Html {
  return html`<section aria-labelledby="scenarios-title">
  <h2 id="scenarios-title">Scenarios</h2>
  ${list.active.length === 0 ? html`<p class="muted">No scenario loaded. Load a bundled one or paste your own below (or use POST /__sandbox/scenarios, --scenario).</p>` : ''}
  ${list.active.map(
    (s) => html`<div class="card" data-scenario="${s.name}">
    <h3>${s.name} <span class="muted">${s.source}</span></h3>
    ${s.description ? html`<p>${s.description}</p>` : ''}
    <p>Plays for ${s.apiKey !== undefined ? html`tenant <code>${s.apiKey}</code> only` : 'every tenant'} · loaded ${peopleTime(s.loadedAt)} · ${s.rules} rule(s) · ${s.steps} step(s) · ${s.pendingTimers} step(s) still to come${s.faults.length ? ` · ${s.faults.length} fault(s)` : ''}</p>
    ${
      s.expectations.length
        ? html`<table data-expectations><thead><tr><th>Expectation</th><th>Status</th><th>Evidence</th></tr></thead><tbody>
    ${s.expectations.map((e) => html`<tr data-expectation="${e.id}" data-status="${e.status}"><td>${e.id}</td><td><strong>${e.status}</strong></td><td>${e.evidence}</td></tr>`)}
    </tbody></table>`
        : ''
    }
    <table><thead><tr><th>At</th><th>Clock</th><th>What</th><th>Outcome</th></tr></thead><tbody>
    ${s.log.map((e) => html`<tr><td>${peopleTime(e.at)}</td><td data-clock="${e.clock}">${e.tenant !== undefined ? `tenant ${e.tenant}` : 'sandbox'}</td><td>${e.what}${e.detail ? html` <span class="muted">${e.detail}</span>` : ''}</td><td>${e.outcome}</td></tr>`)}
    </tbody></table>
  </div>`,
  )}
  <h3>Bundled</h3>
  <table><thead><tr><th>Scenario</th><th>What it does</th><th></th></tr></thead><tbody>
  ${list.bundled.map(
    (b) => html`<tr data-bundled="${b.name}"><td><strong>${b.name}</strong></td><td>${b.description ?? ''}</td>
    <td><form method="post" action="${BASE}/scenarios/load"><input type="hidden" name="back" value="${here}" /><input type="hidden" name="name" value="${b.name}" /><button type="submit" class="secondary" aria-label="Load ${b.name}">Load</button></form></td></tr>`,
  )}
  </tbody></table>
  <h3>Your own</h3>
  <form method="post" action="${BASE}/scenarios/load" class="paste"><input type="hidden" name="back" value="${here}" />
    <label for="scenario-yaml">Scenario YAML</label>
    <textarea id="scenario-yaml" name="yaml" rows="10" spellcheck="false" placeholder="name: my-scenario&#10;recipients:&#10;  - { match: {}, sign: 5m }"></textarea>
    <button type="submit">Load scenario</button>
  </form>
</section>`;
}

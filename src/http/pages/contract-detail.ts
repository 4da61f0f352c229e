/**
 * The dashboard's contract detail (docs/pages.md): recipients with their state and page, placeholders as the
 * contract shows them, and the history with who acted; and the badges the contract list shares with it.
 */
import { html } from 'hono/html';
import type { Control } from '../../control/control.js';
import type { ContractInspection } from '../../control/inspection.js';
import { peopleTime } from '../../core/time-format.js';
import type { RecipientState } from '../../core/vocabulary.js';
import { systemContext } from '../../domain/context.js';
import { isDone } from '../../domain/lifecycle-rules.js';
import { recipientName } from '../../domain/recipients.js';
import { type Shown, shownPlaceholders } from '../../domain/shown-contract.js';
import type { Services } from '../../store/services.js';
import type { Html } from './layout.js';

export function statusBadge(status: string): Html {
  return html`<span class="badge s-${status.toLowerCase().replace(/\s+/g, '-')}">${status}</span>`;
}

export function stateBadge(state: RecipientState): Html {
  const done = isDone({ state });
  return html`<span class="badge ${done ? 'done' : state}">${state}</span>`;
}

export function contractDetail(key: string, control: Control, services: Services): Html {
  let c: ContractInspection;
  try {
    c = control.inspection.contract(key);
  } catch {
    return html`<p class="notice warn">No contract ${key} (it may be gone after a reset).</p>`;
  }
  // Each placeholder as the contract shows it: one rule for every place a value is shown (domain/shown-contract.ts).
  const shown = new Map(
    shownPlaceholders(systemContext(services, 'page'), key).map((x) => [x.placeholder.placeholderKey, x.shown]),
  );
  const names = new Map(c.recipients.map((r) => [r.recipientKey, recipientName(r)]));
  const recipientCell = (key: string | undefined) =>
    key ? html`${names.get(key) ?? key}<br /><span class="mono muted">${key}</span>` : '';
  return html`<section class="card" aria-labelledby="detail-title" data-testid="contract-detail">
  <h3 id="detail-title">${c.name} ${statusBadge(c.status)} <span class="mono muted">${c.contractKey}</span></h3>
  <div class="grid2">
    <div>
      <h4>Recipients</h4>
      <table><thead><tr><th>#</th><th>Recipient</th><th>Role</th><th>State</th><th>Page</th></tr></thead><tbody>
      ${c.recipients.map(
        (
          r,
        ) => html`<tr><td>${r.position ?? ''}</td><td>${r.fullname}<br /><span class="muted">${r.email}</span></td><td>${r.action}</td><td>${stateBadge(r.state)}</td>
        <td><a href="${r.link}" target="_blank" rel="noopener">open page</a></td></tr>`,
      )}
      </tbody></table>
      <h4>Placeholders</h4>
      ${
        c.placeholders.length === 0
          ? html`<p class="muted">none</p>`
          : html`<table><thead><tr><th>Name</th><th>Value</th></tr></thead><tbody>
      ${c.placeholders.map((p) => html`<tr><td>${p.name}</td><td class="mono">${placeholderValue(shown.get(p.placeholderKey))}</td></tr>`)}
      </tbody></table>`
      }
    </div>
    <div>
      <h4>History</h4>
      <table><thead><tr><th>At</th><th>Event</th><th>Recipient</th><th>Status</th><th>Cause</th></tr></thead><tbody>
      ${c.history.map(
        (h) =>
          html`<tr><td>${peopleTime(h.at)}</td><td>${h.event}</td><td>${recipientCell(h.recipientKey)}${actedAsNote(h.detail)}</td><td>${h.status ?? ''}</td><td>${h.cause ?? ''}${h.ip ? html` <span class="muted">${h.ip}</span>` : ''}</td></tr>`,
      )}
      </tbody></table>
    </div>
  </div>
</section>`;
}

/** A placeholder's shown value in the detail's table: a drawn signature as its image, nothing yet as what it is for. */
function placeholderValue(value: Shown | undefined): Html | string {
  if (value === undefined) return '';
  if (value.kind === 'image') return html`<img class="signature" alt="signature" src="${value.src}" />`;
  if (value.kind === 'empty') return html`<span class="muted">${value.label}</span>`;
  if (value.kind === 'table') return [value.columns, ...value.rows].map((row) => row.join(' | ')).join(' / ');
  return value.text;
}

/** The name and email a signer or approver gave through the API (recipient_sign, recipient_approve), if any. */
function actedAsNote(detail: Record<string, unknown> | undefined): Html | string {
  const { fullName, email } = detail ?? {};
  if (typeof fullName !== 'string' || typeof email !== 'string') return '';
  return html`<br /><span class="muted" data-testid="acted-as">as ${fullName} &lt;${email}&gt;</span>`;
}

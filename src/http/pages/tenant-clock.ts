/**
 * The dashboard's tenant picker and clock (docs/pages.md): the whole sandbox or one tenant (platform), each with
 * its clock beside it, and the clock of what is picked with its buttons. Picking a tenant (`?tenant=<apiKey>`)
 * shows its clock (its own, or the sandbox's it follows) and only its records on every tab; the clock's buttons
 * then move the tenant's clock (its first move gives it its own, docs/library.md "Parallel tests").
 */
import { html } from 'hono/html';
import type { Control, Tenant } from '../../control/control.js';
import { peopleTime } from '../../core/time-format.js';
import type { Services } from '../../store/services.js';
import { DASHBOARD as BASE, type Html } from './layout.js';

const STEPS = ['1m', '10m', '1h', '1d', '7d'];

/** The tenant a dashboard URL or form names (`tenant=<apiKey>`), if any; an unknown key is a 404 refusal. */
export function pickedTenant(control: Control, apiKey: string | undefined): Tenant | undefined {
  return apiKey ? control.state.tenant(apiKey) : undefined;
}

/** A filter form keeps the picked tenant. */
export function keepTenant(tenant: Tenant | undefined): Html | string {
  return tenant ? html`<input type="hidden" name="tenant" value="${tenant.apiKey}" />` : '';
}

/** Which tenant a record belongs to, as a badge: the platform's name, its API key beneath. */
export function tenantBadge(services: Services, platformId: string | undefined): Html | string {
  const platform = platformId !== undefined ? services.store.platforms.get(platformId) : undefined;
  if (!platform) return '';
  return html`<span class="badge tenant" data-tenant="${platform.apiKey}" title="tenant ${platform.apiKey}">${platform.name ?? platform.apiKey}</span>`;
}

/** The tenant of a record known by its contract (an email, a delivery). */
export function contractTenant(services: Services, contractKey: string): Html | string {
  return tenantBadge(services, services.store.contracts.get(contractKey)?.platformId);
}

/** The picker (every tenant with its clock) and the clock card of the one picked, or of the sandbox. */
export function tenantClock(
  services: Services,
  control: Control,
  tenant: Tenant | undefined,
  here: string,
  tab: string,
): Html {
  const clock = control.clock.state(tenant);
  const own = (platformId: string) => services.clocks.has(platformId);
  const options = services.store.platforms.all().map((p) => {
    const state = control.clock.state({ platformId: p.platformId, apiKey: p.apiKey });
    const label = `${p.name ?? p.apiKey} (${p.apiKey}) · ${peopleTime(state.now)}${own(p.platformId) ? ' · own clock' : ''}`;
    return html`<option value="${p.apiKey}" ${p.apiKey === tenant?.apiKey ? 'selected' : ''}>${label}</option>`;
  });
  const hidden = html`<input type="hidden" name="back" value="${here}" />${tenant ? html`<input type="hidden" name="tenant" value="${tenant.apiKey}" />` : ''}`;
  const whose = tenant
    ? html`Tenant time <span class="mono muted">${tenant.apiKey}</span> <span class="muted">${clock.own ? '(its own clock)' : '(follows the sandbox clock)'}</span>`
    : 'Sandbox time';
  return html`<form class="card filters" method="get" action="${BASE}" aria-label="Tenant">
    <input type="hidden" name="tab" value="${tab}" />
    <label>Tenant <select name="tenant" data-testid="tenant-picker"><option value="">whole sandbox · ${peopleTime(control.clock.state().now)}</option>${options}</select></label>
    <button type="submit" class="secondary">Show</button>
  </form>
  <section class="card clock" aria-label="${tenant ? 'Tenant clock' : 'Sandbox clock'}">
    <span>${whose}</span> <span class="now" data-testid="clock-now">${peopleTime(clock.now)}</span>
    <span class="badge ${clock.mode === 'frozen' ? 'pending' : 'done'}">${clock.mode === 'frozen' ? 'frozen' : 'running'}</span>
    ${clock.pendingTimers ? html`<span class="muted">${clock.pendingTimers} timer(s), next ${peopleTime(clock.nextTimerAt)}</span>` : ''}
    <form method="post" action="${BASE}/clock/advance">${hidden}
      ${STEPS.map((by) => html`<button type="submit" class="secondary" name="by" value="${by}" aria-label="Advance the clock by ${by}">+${by}</button>`)}
    </form>
    <form method="post" action="${BASE}/clock/set">${hidden}
      <label for="clock-to">Set to</label> <input id="clock-to" name="to" placeholder="2026-01-05T09:00:00Z" size="22" required />
      <button type="submit" class="secondary">Set</button>
    </form>
    <form method="post" action="${BASE}/clock/${clock.mode === 'frozen' ? 'unfreeze' : 'freeze'}">${hidden}
      <button type="submit" class="secondary">${clock.mode === 'frozen' ? 'Unfreeze' : 'Freeze'}</button>
    </form>
  </section>`;
}

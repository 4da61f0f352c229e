/**
 * The dashboard, /__sandbox/ui (docs/pages.md): contracts, outbox, webhook deliveries, the request journal and
 * scenarios, with the clock and a reset. Server-rendered; it keeps itself current by polling its own URL
 * (dashboard.js). It acts only through the control operations, and reads through them and dashboard-data.ts;
 * scenarios come from the scenario engine, which sits above the control operations. Buttons are forms that post
 * and come back (303), so they work from the keyboard and without script.
 */
import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { html } from 'hono/html';
import type { Control, Tenant } from '../../control/control.js';
import { contractTenant, keepTenant, pickedTenant, tenantBadge, tenantClock } from './tenant-clock.js';
import { readForm } from './form.js';
import type { Services } from '../../store/services.js';
import { ApiError, quote } from '../../core/errors.js';
import type { JournalEntry } from '../../journal/journal.js';
import { peopleTime } from '../../core/time-format.js';
import { CONTRACT_STATUSES } from '../../core/vocabulary.js';
import type { ScenarioEngine } from '../../scenarios/engine.js';
import { type ControlOp, controlTable, routeOf } from '../../control-table/index.js';
import { honoPath } from '../../core/route-path.js';
import { dashboardForms, formBody } from '../../control-table/forms.js';
import { type Connection, connectionCard } from './connection.js';
import { contractPage, platformsWithClients } from './dashboard-data.js';
import { DASHBOARD as BASE, type Html, sendPage, shell } from './layout.js';
import { scenariosTab } from './scenarios-tab.js';
import { readinessTab } from './readiness-tab.js';
import { clientName } from '../../domain/clients.js';
import { recipientName } from '../../domain/recipients.js';
import { contractDetail, stateBadge, statusBadge } from './contract-detail.js';

export type { Connection };

export interface DashboardDeps {
  services: Services;
  control: Control;
  /** The scenario engine: the Scenarios tab lists what it holds, its forms load into it. */
  scenarios: ScenarioEngine;
  /** What a client needs to connect, as the start banner prints it. */
  connection: Connection;
  /** The control API's body limit: the forms run its operations, so they obey its limits, this one included. */
  maxBodyBytes: number;
}

const TABS = [
  ['contracts', 'Contracts'],
  ['emails', 'Outbox'],
  ['webhooks', 'Webhooks'],
  ['requests', 'Requests'],
  ['scenarios', 'Scenarios'],
  ['readiness', 'Readiness'],
] as const;
type Tab = (typeof TABS)[number][0];
const PAGE_SIZE = 25;

export function dashboardRoutes(deps: DashboardDeps): Hono {
  const { control, scenarios } = deps;
  const app = new Hono();
  app.get('/', async (c) => sendPage(c, await dashboard(c, deps)));

  // Each action acts through the control operations, then goes back where the form was (or shows why it could not).
  const act = (
    path: string,
    run: (form: Record<string, string>, params: Record<string, string>) => Promise<unknown> | unknown,
  ) =>
    app.post(path, refuseLargeBody(deps.maxBodyBytes), async (c) => {
      // Only the dashboard's own forms: any other body is refused (415, JSON) before anything is done.
      if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(c.req.header('content-type') ?? '')) {
        throw new ApiError(
          415,
          'The dashboard takes its own forms (application/x-www-form-urlencoded); use the JSON control API otherwise',
        );
      }
      const form = Object.fromEntries(
        Object.entries(await readForm(c)).filter((e): e is [string, string] => typeof e[1] === 'string'),
      );
      // Checked before acting: a refusal after the act would hide that the act ran.
      const back = backPath(form.back);
      try {
        await run(form, c.req.param());
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        return c.redirect(withParam(back, 'error', error.message), 303);
      }
      return c.redirect(back, 303);
    });
  // Each form runs its control operation (control-table/forms.ts); a picked tenant's form acts for that tenant.
  for (const form of dashboardForms) {
    const op = controlTable[form.operation] as ControlOp<unknown[]>;
    act(honoPath(form.path ?? routeOf(op).path), (fields, params) =>
      op.handle(
        { params, query: {}, body: formBody(form, fields) },
        { control, scenarios, tenant: form.picked ? pickedTenant(control, fields.tenant) : undefined },
      ),
    );
  }
  return app;
}

/** A form's body past the control API's limit: 413, as the control API answers (docs/errors.md, "The body limit"). */
function refuseLargeBody(maxBytes: number) {
  return bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new ApiError(413, `Request body is larger than the limit of ${maxBytes} bytes`);
    },
  });
}

/**
 * Where a form goes back to: a path of the dashboard (`/__sandbox/ui…`), the dashboard itself when none is given.
 * Anything else (another site, `//host`, a backslash, a space or control character, which cannot go in a Location
 * header) is a 400.
 */
function backPath(back: string | undefined): string {
  if (back === undefined || back === '') return BASE;
  const url = /^\/(?![/\\])[\x21-\x7e]*$/.test(back) ? new URL(back, 'http://dashboard.invalid') : undefined;
  if (url?.origin !== 'http://dashboard.invalid' || !(url.pathname === BASE || url.pathname.startsWith(`${BASE}/`)))
    throw ApiError.badRequest(
      `The form's "back" must be a path of the dashboard, like ${BASE}?tab=emails (got ${quote(back, 100)})`,
      [{ path: 'back', message: `Must start with ${BASE}` }],
    );
  return `${url.pathname}${url.search}`;
}

function withParam(url: string, name: string, value: string): string {
  const u = new URL(url, 'http://x');
  u.searchParams.set(name, value);
  return `${u.pathname}${u.search}`;
}

async function dashboard(c: Context, deps: DashboardDeps): Promise<Html> {
  const q = c.req.query();
  const tab: Tab = TABS.some(([t]) => t === q.tab) ? (q.tab as Tab) : 'contracts';
  const here = c.req.url.slice(new URL(c.req.url).origin.length);
  const tenant = pickedTenant(deps.control, q.tenant);
  if (tab === 'requests') await deps.control.journal.ready();
  const body = html`<header class="bar">
  <span class="brand">esign-sandbox</span><span class="sub">dashboard</span>
  <a href="/docs">API reference</a>
  <span class="spacer"></span>
  <details class="reset"><summary>Reset…</summary><div>
    <p>Back to the seeded state: every record made since the start, the outbox, the webhook log and the journal go.</p>
    <form method="post" action="${BASE}/reset"><input type="hidden" name="back" value="${BASE}" /><button type="submit" class="danger">Yes, reset the sandbox</button></form>
  </div></details>
</header>
<nav class="tabs" aria-label="Dashboard sections">
  ${TABS.map(([t, label]) => html`<a href="${BASE}?tab=${t}${tenant ? `&tenant=${encodeURIComponent(tenant.apiKey)}` : ''}" ${t === tab ? html`aria-current="page"` : ''}>${label}</a>`)}
</nav>
<main id="live" data-poll="1500">
  ${q.error ? html`<p class="notice bad" role="alert">${q.error}</p>` : ''}
  ${connectionCard(new URL(c.req.url).origin, deps.connection)}
  ${tenantClock(deps.services, deps.control, tenant, here, tab)}
  ${await section(tab, q, here, deps, tenant)}
</main>`;
  return shell({ title: 'Dashboard', body, bodyClass: 'dashboard', scripts: ['dashboard.js'] });
}

function section(
  tab: Tab,
  q: Record<string, string>,
  here: string,
  deps: DashboardDeps,
  tenant: Tenant | undefined,
): Html | Promise<Html> {
  switch (tab) {
    case 'contracts':
      return contracts(tenant ? { ...q, platform: tenant.apiKey } : q, deps);
    case 'emails':
      return emails(q, deps, tenant);
    case 'webhooks':
      return webhooks(q, here, deps, tenant);
    case 'requests':
      return requests(q, deps.control, tenant);
    case 'scenarios':
      return deps.scenarios.list().then((list) => scenariosTab(list, here));
    case 'readiness':
      return deps.control.readiness.report({}, tenant).then((report) => readinessTab(report, tenant));
  }
}

function pageOf(q: Record<string, string>): number {
  const n = Number(q.page);
  return Number.isInteger(n) && n > 1 ? n : 1;
}

function pager(q: Record<string, string>, total: number, offset: number, limit: number): Html {
  const page = Math.floor(offset / limit) + 1;
  const link = (p: number) =>
    `${BASE}?${new URLSearchParams({ ...q, page: String(p) }).toString().replace(/(^|&)error=[^&]*/, '')}`;
  return html`<nav class="pager" aria-label="Pages">
  <span>${total === 0 ? 'none' : `${offset + 1}–${Math.min(offset + limit, total)} of ${total.toLocaleString('en')}`}</span>
  ${page > 1 ? html`<a href="${link(page - 1)}">← Newer</a>` : ''}
  ${offset + limit < total ? html`<a href="${link(page + 1)}">Older →</a>` : ''}
</nav>`;
}

function contracts(q: Record<string, string>, { services, control }: DashboardDeps): Html {
  const platforms = platformsWithClients(services);
  const platformId = platforms.find((p) => p.platform.apiKey === q.platform)?.platform.platformId;
  const page = contractPage(services, {
    platformId: q.platform ? (platformId ?? '-') : undefined,
    clientKey: q.client || undefined,
    status: q.status || undefined,
    offset: (pageOf(q) - 1) * PAGE_SIZE,
    limit: PAGE_SIZE,
  });
  const clients = platforms.filter((p) => !q.platform || p.platform.apiKey === q.platform).flatMap((p) => p.clients);
  const clientNames = new Map(platforms.flatMap((p) => p.clients).map((cl) => [cl.clientKey, clientName(cl)]));
  const link = (key: string) => `${BASE}?${new URLSearchParams({ ...q, contract: key }).toString()}`;
  const selected = q.contract ? contractDetail(q.contract, control, services) : '';
  return html`<section aria-labelledby="contracts-title">
  <h2 id="contracts-title">Contracts</h2>
  <form class="filters" method="get" action="${BASE}"><input type="hidden" name="tab" value="contracts" />
    <label>Platform <select name="platform"><option value="">all</option>${platforms.map((p) => html`<option value="${p.platform.apiKey}" ${p.platform.apiKey === q.platform ? 'selected' : ''}>${p.platform.name ?? p.platform.apiKey} (${p.platform.apiKey})</option>`)}</select></label>
    <label>Client <select name="client"><option value="">all</option>${clients.map((cl) => html`<option value="${cl.clientKey}" ${cl.clientKey === q.client ? 'selected' : ''}>${clientName(cl)} (${cl.clientKey})</option>`)}</select></label>
    <label>Status <select name="status"><option value="">any</option>${CONTRACT_STATUSES.map((s) => html`<option ${s === q.status ? 'selected' : ''}>${s}</option>`)}</select></label>
    <button type="submit" class="secondary">Filter</button>
  </form>
  ${selected}
  <table>
    <thead><tr><th>Contract</th><th>Client</th><th>Status</th><th>Recipients</th><th>Created</th><th>Tenant</th></tr></thead>
    <tbody>
    ${page.contracts.map(
      ({
        contract,
        recipients,
      }) => html`<tr class="${contract.contractKey === q.contract ? 'selected' : ''}" data-contract="${contract.contractKey}">
      <td><a href="${link(contract.contractKey)}">${contract.name}</a><br /><span class="mono muted">${contract.contractKey}</span></td>
      <td>${clientNames.get(contract.clientKey) ?? contract.clientKey}<br /><span class="mono muted">${contract.clientKey}</span></td>
      <td>${statusBadge(contract.status)}</td>
      <td>${recipients.map((r) => html`<div>${recipientName(r) ?? ''} <span class="muted">${r.action}</span> ${stateBadge(r.state)}</div>`)}</td>
      <td>${peopleTime(contract.createTime)}</td>
      <td>${tenantBadge(services, contract.platformId)}</td>
    </tr>`,
    )}
    </tbody>
  </table>
  ${pager(q, page.total, page.offset, page.limit)}
</section>`;
}

function emails(q: Record<string, string>, { control, services }: DashboardDeps, tenant: Tenant | undefined): Html {
  const all = control.outbox.list({ to: q.to ?? '' }, tenant).reverse();
  const offset = (pageOf(q) - 1) * PAGE_SIZE;
  return html`<section aria-labelledby="emails-title">
  <h2 id="emails-title">Outbox</h2>
  <form class="filters" method="get" action="${BASE}"><input type="hidden" name="tab" value="emails" />${keepTenant(tenant)}
    <label>To <input name="to" value="${q.to ?? ''}" placeholder="grace@example.com" /></label><button type="submit" class="secondary">Filter</button>
  </form>
  ${all.slice(offset, offset + PAGE_SIZE).map(
    (e) => html`<details class="card" id="email-${e.id}" data-email="${e.kind}">
    <summary><strong>${e.subject}</strong> · to ${e.toName ? `${e.toName} <${e.to}>` : e.to} · <span class="badge">${e.kind}</span> · <span class="muted">${peopleTime(e.sentAt)}</span> ${contractTenant(services, e.contractKey)}</summary>
    ${e.link ? html`<p>Link: <a href="${e.link}">${e.link}</a></p>` : ''}
    <pre>${e.text}</pre>
  </details>`,
  )}
  ${pager(q, all.length, offset, PAGE_SIZE)}
</section>`;
}

function webhooks(
  q: Record<string, string>,
  here: string,
  { control, services }: DashboardDeps,
  tenant: Tenant | undefined,
): Html {
  const status = q.status === 'pending' || q.status === 'delivered' || q.status === 'failed' ? q.status : undefined;
  // One delivery, when a link names it (a readiness finding's evidence); else the log, newest first.
  const all = control.webhooks
    .deliveries(status ? { status } : {}, tenant)
    .filter((d) => !q.delivery || d.id === q.delivery)
    .reverse();
  const offset = (pageOf(q) - 1) * PAGE_SIZE;
  return html`<section aria-labelledby="webhooks-title">
  <h2 id="webhooks-title">Webhook deliveries</h2>
  <form class="filters" method="get" action="${BASE}"><input type="hidden" name="tab" value="webhooks" />${keepTenant(tenant)}
    <label>Status <select name="status"><option value="">any</option>${['pending', 'delivered', 'failed'].map((s) => html`<option ${s === q.status ? 'selected' : ''}>${s}</option>`)}</select></label>
    <button type="submit" class="secondary">Filter</button>
  </form>
  ${all.slice(offset, offset + PAGE_SIZE).map(
    (
      d,
    ) => html`<details class="card" id="delivery-${d.id}" data-delivery="${d.event}" ${d.id === q.delivery ? 'open' : ''}>
    <summary><strong>${d.event}</strong> · ${contractName(d)} → <span class="mono">${d.url}</span> · <span class="badge ${d.status}">${d.status}</span> · ${lastResult(d)}${d.nextAttemptAt ? html` · next attempt ${peopleTime(d.nextAttemptAt)}` : ''} ${contractTenant(services, d.contractKey)}</summary>
    <form method="post" action="${BASE}/webhook-deliveries/${d.id}/redeliver"><input type="hidden" name="back" value="${here}" /><button type="submit" class="secondary">Redeliver</button></form>
    <h4>Headers</h4>
    <pre>content-type: application/json\nwebhook-id: ${d.webhookId}\nwebhook-timestamp: ${d.attempts.at(-1)?.webhookTimestamp ?? '(at the attempt)'}\nwebhook-signature: v1,… (HMAC-SHA256 with the webhook's secret, made at each attempt)</pre>
    <h4>Attempts</h4>
    <table><thead><tr><th>At</th><th>Trigger</th><th>Result</th><th>Took</th></tr></thead><tbody>
    ${d.attempts.map((a) => html`<tr><td>${peopleTime(a.at)}</td><td>${a.trigger}</td><td>${a.statusCode !== undefined ? `HTTP ${a.statusCode}` : ''}${a.error ? html` <span class="badge failed">${a.error}</span>` : ''}</td><td>${Math.round(a.durationMs)} ms</td></tr>`)}
    </tbody></table>
    <h4>Payload</h4>
    <pre>${JSON.stringify(d.payload, null, 2)}</pre>
  </details>`,
  )}
  ${pager(q, all.length, offset, PAGE_SIZE)}
</section>`;
}

type Delivery = ReturnType<Control['webhooks']['deliveries']>[number];

/** The contract a delivery is about: its name (from the payload) and key. */
function contractName(d: Delivery): Html {
  const name = (d.payload as { data?: { name?: unknown } } | undefined)?.data?.name;
  return html`${typeof name === 'string' && name ? html`<span>${name}</span> ` : ''}<span class="mono muted">${d.contractKey}</span>`;
}

/** The last attempt's answer: its status code, or why it failed, and how many attempts there were. */
function lastResult(d: Delivery): Html {
  const last = d.attempts.at(-1);
  if (!last) return html`<span class="muted">not sent yet</span>`;
  const answer = last.statusCode !== undefined ? `HTTP ${last.statusCode}` : (last.error ?? 'no answer');
  const more = d.attempts.length > 1 ? ` (attempt ${d.attempts.length})` : '';
  return html`<span data-testid="last-status">last: ${answer}${more}</span>`;
}

/** The journal's doors (journal.ts `REQUEST_KINDS`), as the Requests tab offers them. */
const KIND_CHOICES = [
  ['', 'any door'],
  ['api', '/api'],
  ['control', 'control API'],
  ['page', 'pages'],
] as const;

function requests(q: Record<string, string>, control: Control, tenant: Tenant | undefined): Html {
  const filter = Object.fromEntries(['kind', 'path', 'method', 'status'].filter((k) => q[k]).map((k) => [k, q[k]!]));
  let list: JournalEntry[] = [];
  let error = '';
  try {
    // One request, when a link names it (a readiness finding's evidence); else the journal, newest first.
    list = control.journal
      .list(filter, tenant)
      .requests.filter((r) => !q.id || String(r.id) === q.id)
      .reverse();
  } catch (e) {
    error = e instanceof ApiError ? e.message : String(e);
  }
  const offset = (pageOf(q) - 1) * PAGE_SIZE;
  return html`<section aria-labelledby="requests-title">
  <h2 id="requests-title">Request journal</h2>
  <form class="filters" method="get" action="${BASE}"><input type="hidden" name="tab" value="requests" />${keepTenant(tenant)}
    <label>Through <select name="kind">${KIND_CHOICES.map(([value, label]) => html`<option value="${value}"${q.kind === value ? ' selected' : ''}>${label}</option>`)}</select></label>
    <label>Path <input name="path" value="${q.path ?? ''}" placeholder="/api/*" /></label>
    <label>Method <input name="method" value="${q.method ?? ''}" placeholder="POST" size="6" /></label>
    <label>Status <input name="status" value="${q.status ?? ''}" placeholder="4xx" size="5" /></label>
    <button type="submit" class="secondary">Filter</button>
  </form>
  ${error ? html`<p class="notice bad">${error}</p>` : ''}
  <table><thead><tr><th>At</th><th>Through</th><th>Request</th><th>Action</th><th>Status</th><th>Took</th></tr></thead><tbody>
  ${list.slice(offset, offset + PAGE_SIZE).map(
    (
      r,
    ) => html`<tr data-kind="${r.kind}"><td>${peopleTime(r.at)}</td><td>${r.kind}</td><td><details id="request-${r.id}" ${String(r.id) === q.id ? 'open' : ''}><summary class="mono">${r.method} ${r.path}${r.query ? `?${r.query}` : ''}</summary>
      <pre>${JSON.stringify(r.request.body ?? null, null, 2)}</pre><pre>${JSON.stringify(r.response.body ?? null, null, 2)}</pre></details></td>
      <td>${r.action ?? ''}</td><td><span class="badge ${r.status >= 400 ? 'failed' : 'done'}">${r.status}</span></td><td>${r.durationMs.toFixed(1)} ms</td></tr>`,
  )}
  </tbody></table>
  ${pager(q, list.length, offset, PAGE_SIZE)}
</section>`;
}

/**
 * The dashboard's "connect your client" card: the API's base URL, the key header and the default credentials,
 * as the start banner prints them, so whoever opens GET / (which leads to the dashboard) can connect a client.
 */
import { html } from 'hono/html';
import { headerLabel } from '../../config/options.js';
import type { Html } from './layout.js';

/** The default platform's credentials and the API-key header, as the start banner shows them. */
export interface Connection {
  apiKey?: string;
  secret?: string;
  clientKey?: string;
  clientName?: string;
  apiKeyHeader: string;
}

/** How to reach this sandbox's API, as the start banner says it: base URL, key header and the default credentials. */
export function connectionCard(origin: string, k: Connection): Html {
  const row = (label: string, value: string | undefined, extra = '') =>
    value
      ? html`<div><dt>${label}</dt><dd><code>${value}</code>${extra ? html` <span class="muted">${extra}</span>` : ''}</dd></div>`
      : '';
  return html`<section class="card connect" aria-label="Connect your client" data-testid="connection">
  <dl>
    ${row('API', `${origin}/api`)}
    ${row('Control API', `${origin}/__sandbox`)}
    ${row('Key header', headerLabel(k.apiKeyHeader))}
    ${k.apiKey ? html`${row('API key', k.apiKey)}${row('Secret', k.secret)}` : html`<div><dt>Platform</dt><dd class="muted">none in the fixtures: POST /__sandbox/platforms</dd></div>`}
    ${row('Client key', k.clientKey, k.clientName ? `(${k.clientName})` : '')}
  </dl>
</section>`;
}

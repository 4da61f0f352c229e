/**
 * GET /__sandbox/sign/{recipientKey}: the page the request emails link to. For now a minimal read-only page that
 * says where the recipient stands and how to act through the control API; the URL scheme is stable.
 */
import { Hono } from 'hono';
import type { ControlService } from '../../control/service.js';
import { recipientLink } from '../../domain/links.js';

export function signPageRoutes(control: ControlService, baseUrl: () => string): Hono {
  const app = new Hono();
  app.get('/:recipientKey', (c) => {
    const { recipient, contract } = control.recipientRecords(c.req.param('recipientKey'));
    if (!recipient || !contract) return c.html(page('Recipient not found', '<p>No recipient has this key. The link may be from before a reset.</p>'), 404);
    const actUrl = `${baseUrl().replace(/\/+$/, '')}/__sandbox/recipients/${encodeURIComponent(recipient.recipientKey)}`;
    const verbs = recipient.action === 'view' ? ['view'] : ['view', recipient.action];
    const body = `
<p>Contract <strong>${esc(contract.name)}</strong> (${esc(contract.contractKey)}), status <strong>${esc(contract.status)}</strong>.</p>
<p>Recipient ${esc(recipient.fullname ?? '')} &lt;${esc(recipient.email ?? '')}&gt;: role <strong>${esc(recipient.action)}</strong>, state <strong>${esc(recipient.state)}</strong>.</p>
<p>Act as this recipient with the control API:</p>
<pre>${verbs.map((v) => `curl -X POST ${esc(actUrl)}/${v}`).join('\n')}</pre>
<p>This page: <code>${esc(recipientLink(baseUrl(), recipient.recipientKey))}</code></p>`;
    return c.html(page(contract.name, body));
  });
  return app;
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)} · esign-sandbox</title></head><body><h1>${esc(title)}</h1>${body}</body></html>`;
}

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
}

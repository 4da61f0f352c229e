/**
 * The recipient page, /sharing/<shareLink> (docs/pages.md): what a recipient sees when it follows the link in
 * its request email. Opening it is a view (docs/lifecycle.md); its one action, by role, goes through the door of a
 * link's holder (domain/recipient-acts.ts `actByLink`) as the API's recipient side does, with cause `page` and the
 * browser's address, so events, webhooks, emails and history are the same whichever way a recipient acts.
 */
import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { html, raw } from 'hono/html';
import { ApiError } from '../../core/errors.js';
import { peopleTime } from '../../core/time-format.js';
import { actBody } from '../../control/schemas.js';
import { parseWith } from '../../core/validation.js';
import { actByLink, viewByLink } from '../../domain/recipient-acts.js';
import { systemContext } from '../../domain/context.js';
import { requestBody } from '../body.js';
import type { Services } from '../../store/services.js';
import { pageHtml, shownTags } from '../../domain/shown-contract.js';
import { type SharePage, refusalAsSeen, sharePage } from '../../domain/share-links.js';
import { blocksOrder, isDone } from '../../domain/lifecycle-rules.js';
import { STATUS, contractTypeOf, specialTypeName } from '../../core/vocabulary.js';
import type { RecipientRecord } from '../../store/records.js';
import { type Html, sendPage, shell } from './layout.js';
import type { Renderer } from '../../render/renderer.js';
import { readForm } from './form.js';
import { recipientName } from '../../domain/recipients.js';

const ROLE: Readonly<Record<RecipientRecord['action'], { verb: string; button: string; intro: string }>> = {
  sign: { verb: 'sign', button: 'Sign', intro: 'Sign this contract' },
  approve: { verb: 'approve', button: 'Approve', intro: 'Approve this contract' },
  lock: { verb: 'lock', button: 'Lock', intro: 'Lock this contract' },
  view: { verb: 'view', button: '', intro: 'Read this contract' },
};

/** What showing a contract needs: the records, and the renderer whose worker sanitises its HTML. */
interface ShowDeps {
  services: Services;
  renderer: Renderer;
}

export function recipientPageRoutes({ services, renderer, maxBodyBytes }: ShowDeps & { maxBodyBytes: number }): Hono {
  const app = new Hono();
  const deps: ShowDeps = { services, renderer };
  // The holder of a link acts in its contract's tenant, on its clock: the request's tenant, which the travel object
  // tells by the link in the page's path (domain/request-facts.ts); the context is built once per request.
  const linkContext = (c: Context) => systemContext(services, 'page', requestBody(c).tenant);

  app.get('/:link', async (c) => {
    const link = c.req.param('link');
    const ctx = linkContext(c);
    let page = sharePage(ctx, link);
    if (!page) return notFound(c);
    // Opening the page is the recipient's view, once: only a notified recipient that has not viewed yet views here.
    if (viewByLink(ctx, page, { ip: ipOf(c) })) page = sharePage(ctx, link)!;
    return sendPage(c, await render(deps, page));
  });

  app.post(
    '/:link',
    bodyLimit({ maxSize: maxBodyBytes, onError: (c) => c.text('Request body too large', 413) }),
    async (c) => {
      const link = c.req.param('link');
      const ctx = linkContext(c);
      const page = sharePage(ctx, link);
      if (!page) return notFound(c);
      const form = await readForm(c);
      const verb = typeof form.verb === 'string' ? form.verb : '';
      if (verb !== 'sign' && verb !== 'approve' && verb !== 'lock') {
        return sendPage(c, await render(deps, page, `Nothing to do: "${verb}" is not an action of this page.`), 400);
      }
      const field = form.mode === 'draw' ? form.drawn : form.signature;
      const signature = typeof field === 'string' ? field.trim() : '';
      if (verb === 'sign' && signature === '') {
        return sendPage(c, await render(deps, page, 'Type your name or draw your signature, then press Sign.'), 400);
      }
      try {
        // The act goes through the one door of a link's holder, as the API's recipient side does.
        const checked = parseWith(actBody(), verb === 'sign' ? { signature } : {});
        actByLink(ctx, page, verb, { ...checked, ip: ipOf(c) });
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        const status = error.status === 409 || error.status === 404 ? error.status : 400;
        // Said with the recipients' keys as the link's holder sees them, as on the API's recipient side.
        const message = refusalAsSeen(ctx, page, error).message;
        return sendPage(c, await render(deps, sharePage(ctx, link) ?? page, message), status);
      }
      // After the act, the page itself shows what happened (and a reload does not post again).
      return c.redirect(`/sharing/${encodeURIComponent(page.shareLink)}`, 303);
    },
  );

  return app;
}

/**
 * The address the browser's request came from, for the audit trail; in process, where there is no socket, the
 * sandbox's own (`127.0.0.1`, as the control API's acts; docs/lifecycle.md).
 */
function ipOf(c: Context): string {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1';
}

function notFound(c: Context) {
  return sendPage(
    c,
    shell({
      title: 'Link not found',
      bodyClass: 'recipient',
      body: html`${bar()}<main><h1>This link does not open a contract</h1><p>No recipient or share link has this address. It may be from before the sandbox was reset.</p></main>`,
    }),
    404,
  );
}

function bar(): Html {
  return html`<header class="bar"><span class="brand">esign-sandbox</span><span class="sub">Recipient page · a sandbox: nothing signed here is binding</span></header>`;
}

async function render(deps: ShowDeps, page: SharePage, error?: string): Promise<Html> {
  const { recipient, contract } = page;
  const role = ROLE[recipient.action];
  // What the link lets its holder do (domain/share-links.ts): a view-only link shows no form, whatever the role.
  const canAct = page.view !== '4' && recipient.state === 'seen' && contract.status !== STATUS.archived;
  const body = html`${bar()}
<main>
  <h1>${contract.name}</h1>
  <p class="muted">
    For <strong>${recipientName(recipient) ?? `recipient ${recipient.id}`}</strong>${recipient.email ? html` &lt;${recipient.email}&gt;` : ''}
    · your part: <span class="badge">${recipient.action}</span> · contract status: <span class="badge" data-testid="contract-status">${contract.status}</span>
  </p>
  ${error ? html`<p class="notice bad" role="alert">${error}</p>` : ''}
  <div role="status">${statusNotices(page)}</div>
  ${await documentSection(deps, page)}
  ${canAct ? actionForm(recipient, role) : ''}
</main>`;
  return shell({
    title: contract.name,
    body,
    bodyClass: 'recipient',
    scripts: canAct && recipient.action === 'sign' ? ['signature_pad.js', 'recipient.js'] : [],
  });
}

/**
 * The document: an HTML contract's content with its placeholders filled, sanitised. A PDF contract's pages come as
 * the sandbox's own PDF of it (the download, fields drawn: unfilled ones as dashed, labelled boxes), shown by the
 * browser's PDF viewer, with this recipient's fields listed by page (docs/documents.md).
 */
async function documentSection({ services, renderer }: ShowDeps, page: SharePage): Promise<Html> {
  const { contract, recipient } = page;
  if (contractTypeOf(contract) === 'pdf') {
    if (!contract.document)
      return html`<article class="document" aria-label="Contract"><p class="notice warn">The PDF of this contract has not been uploaded yet.</p></article>`;
    const src = `/api/recipient_download_pdf?shareLink=${encodeURIComponent(page.shareLink)}&inline=1`;
    const mine = page.placeholders.filter((p) => p.recipientKey === recipient.recipientKey && p.insertion.length > 0);
    const fields = mine.flatMap((p) =>
      p.insertion.map((x) => html`<li>${specialTypeName(p)} on page ${Number(x.pageId ?? 0) + 1}</li>`),
    );
    return html`<article class="document pdf" aria-label="Contract">
  <object data="${src}" type="application/pdf" class="pdf-pages" aria-label="The contract's pages">
    <p>This browser cannot show the PDF here: <a href="${src}">open the contract's PDF</a>.</p>
  </object>
  ${fields.length ? html`<p>Your fields, marked in the PDF:</p><ul class="fields" aria-label="Your fields">${fields}</ul>` : ''}
</article>`;
  }
  const shown = shownTags(systemContext(services, 'page', contract.platformId), contract.contractKey);
  const content = await renderer.sanitise(pageHtml(contract.value, shown));
  return html`<article class="document" aria-label="Contract">${raw(content)}</article>`;
}

function statusNotices(page: SharePage): Html[] {
  const { recipient: r, contract } = page;
  const out: Html[] = [];
  if (contract.status === STATUS.archived)
    out.push(
      html`<p class="notice bad">This contract is archived: it can no longer be signed, approved or locked.</p>`,
    );
  if (r.state === 'waiting' && contract.status !== STATUS.archived) {
    if (contract.status === STATUS.created) {
      out.push(
        html`<p class="notice warn">This contract has not been sent yet. You will get an email when it is your turn.</p>`,
      );
    } else {
      const first = page.recipients.filter(
        (other) => other.position === page.openPosition && blocksOrder(other) && !isDone(other),
      );
      const names = first.map(
        (o) => html`<strong>${recipientName(o) ?? `recipient ${o.id}`}</strong> (to ${o.action})`,
      );
      out.push(
        html`<p class="notice warn">It is not your turn yet. This contract is waiting for ${joinHtml(names)} first; you will get an email when it is your turn.</p>`,
      );
    }
  }
  if (r.state === 'signed')
    out.push(
      html`<p class="notice ok">You signed this contract on ${peopleTime(r.actedAt)}. Your signature: ${signatureImage(r.signature ?? '')}</p>`,
    );
  if (r.state === 'approved')
    out.push(html`<p class="notice ok">You approved this contract on ${peopleTime(r.actedAt)}.</p>`);
  if (r.state === 'locked')
    out.push(html`<p class="notice ok">You locked this contract on ${peopleTime(r.actedAt)}.</p>`);
  if (r.state === 'viewed')
    out.push(
      html`<p class="notice ok">You were sent this contract to read; you viewed it on ${peopleTime(r.seenAt)}. There is nothing for you to sign.</p>`,
    );
  if (contract.status === STATUS.fullySigned) {
    out.push(
      html`<p class="notice ok">This contract is fully signed: everyone who had to sign has signed. <a href="/api/recipient_download_pdf?shareLink=${encodeURIComponent(page.shareLink)}" download>Download the signed PDF</a></p>`,
    );
  }
  return out;
}

function signatureImage(signature: string): Html {
  return signature.startsWith('data:image/')
    ? html`<img class="signature" alt="your drawn signature" src="${signature}">`
    : html`<span class="signature-shown">${signature}</span>`;
}

function joinHtml(parts: Html[]): Html {
  return html`${parts.map((part, i) => html`${i === 0 ? '' : i === parts.length - 1 ? ' and ' : ', '}${part}`)}`;
}

function actionForm(recipient: RecipientRecord, role: (typeof ROLE)[keyof typeof ROLE]): Html {
  if (recipient.action !== 'sign') {
    return html`<form method="post" class="action card" aria-labelledby="act-title">
  <h2 id="act-title">${role.intro}</h2>
  <p>You have read the contract above. Press <strong>${role.button}</strong> to ${role.verb} it; this cannot be undone.</p>
  <button type="submit" name="verb" value="${role.verb}">${role.button}</button>
</form>`;
  }
  return html`<form method="post" id="sign-form" class="action card" aria-labelledby="act-title">
  <h2 id="act-title">${role.intro}</h2>
  <fieldset id="mode-choice" hidden>
    <legend>How do you want to sign?</legend>
    <label><input type="radio" name="mode" value="type" checked /> Type my name</label>
    <label><input type="radio" name="mode" value="draw" /> Draw my signature</label>
  </fieldset>
  <div id="type-box" class="row">
    <label for="signature">Type your full name as your signature</label>
    <input id="signature" name="signature" type="text" maxlength="200" autocomplete="name" required />
  </div>
  <div id="draw-box" hidden>
    <p id="pad-label"><strong>Draw your signature</strong> in the box with a mouse, pen or finger.</p>
    <canvas id="signature-pad" role="img" aria-labelledby="pad-label"></canvas>
    <div class="row"><button type="button" class="secondary" id="clear-pad">Clear drawing</button></div>
  </div>
  <input type="hidden" name="drawn" value="" />
  <p id="pad-error" class="muted" role="alert"></p>
  <button type="submit" name="verb" value="sign">Sign</button>
</form>`;
}

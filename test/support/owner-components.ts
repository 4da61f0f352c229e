/**
 * The vendor's owner-side components (sendforsign-components: ContractList, ContractEditor, TemplateList,
 * TemplateEditor) as a test client: each call with the method, path, headers and body their source builds
 * (docs/compatibility.md cites the lines), against the in-process sandbox. Credentials as the components send them:
 * `x-sendforsign-key` and `clientKey` with an API key, or `Authorization: Bearer` with no `clientKey` in bodies
 * (and `clientKey=` still in every GET query).
 */
import type { Answer, TestSandbox } from './helpers.js';

export type OwnerAuth = { apiKey: string; clientKey: string } | { token: string };

/** H-api: the Accept and Content-Type most POSTs carry. */
const H_API = { accept: 'application/vnd.api+json', 'content-type': 'application/vnd.api+json' };
/** POSTs whose Content-Type line is commented out (Continue's create/update, the text-change updates): axios's default. */
const H_JSON = { accept: 'application/vnd.api+json', 'content-type': 'application/json' };

export function ownerComponents(t: TestSandbox, auth: OwnerAuth) {
  const own: Record<string, string> =
    'token' in auth ? { authorization: `Bearer ${auth.token}` } : { 'x-sendforsign-key': auth.apiKey };
  /** `clientKey: !token ? clientKey : undefined` in bodies; JSON drops the undefined. */
  const clientKey = 'token' in auth ? undefined : auth.clientKey;
  /** In GET queries the key is always written, `''` when there is none. */
  const queryKey = clientKey ?? '';
  const post = (entity: string, body: unknown, headers: Record<string, string> = H_API): Promise<Answer> =>
    t.request(`/api/${entity}`, { method: 'POST', headers: { ...headers, ...own }, body: JSON.stringify(body) });
  const get = (path: string): Promise<Answer> =>
    t.request(`/api/${path}`, { method: 'GET', headers: { accept: 'application/vnd.api+json', ...own } });
  const data = (fields: Record<string, unknown>) => ({ data: { ...fields, clientKey } });
  const component = { 'x-sendforsign-component': 'true' };

  return {
    clientKey: queryKey,
    // ---- ContractList (contract-list.tsx, rename-modal.tsx) ----
    listContracts: (userKey?: string) => post('contract', data({ action: 'list', userKey })),
    eventStatus: () => get('event_status'),
    archive: (contractKey: string) =>
      post('contract', data({ action: 'archive', userKey: '', contract: { contractKey } })),
    duplicate: (contractKey: string) =>
      post('contract', data({ action: 'duplicate', userKey: '', contract: { contractKey } })),
    convert: (contractKey: string, name: string) =>
      post('template', data({ action: 'convert', userKey: '', template: { name, contractKey } })),
    rename: (contractKey: string, name: string) =>
      post('contract', data({ action: 'update', userKey: '', contract: { contractKey, name } })),

    // ---- ContractEditor (contract-editor.tsx and its blocks) ----
    /** Continue on a new contract: create, with x-sendforsign-component and axios's default Content-Type. */
    create: (contract: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      post('contract', data({ action: 'create', userKey: '', contract, ...extra }), { ...H_JSON, ...component }),
    read: (contractKey: string) => post('contract', data({ action: 'read', userKey: '', contract: { contractKey } })),
    /** The text-change save (fluent-editor-block.tsx): no component header, axios's default Content-Type. */
    saveText: (contractKey: string, value: string) =>
      post('contract', data({ action: 'update', userKey: '', contract: { contractKey, value } }), H_JSON),
    events: (contractKey: string) => get(`contract_event?contractKey=${contractKey}&clientKey=${queryKey}`),
    signs: (contractKey: string) => get(`contract_sign?contractKey=${contractKey}&clientKey=${queryKey}`),
    shareLinks: (contractKey: string) => get(`contract_share_link?contractKey=${contractKey}&clientKey=${queryKey}`),
    /** check_contract_value: (a) Ready to share and (b) the sign modal send signCount; (c) every text change does not. */
    checkValue: (contractKey: string, signCount?: number) =>
      post('check_contract_value', { clientKey, userKey: '', contractKey, signCount }),
    placeholders: (owner: { contractKey: string } | { templateKey: string }, withComponentHeader = true) =>
      post(
        'placeholder',
        data({ action: 'list', userKey: '', ...owner }),
        withComponentHeader ? { ...H_API, ...component } : H_API,
      ),
    addPlaceholder: (owner: { contractKey: string } | { templateKey: string }, placeholder: Record<string, unknown>) =>
      post('placeholder', data({ action: 'create', userKey: '', ...owner, placeholder })),
    changePlaceholder: (contractKey: string, placeholder: Record<string, unknown>) =>
      post('placeholder', data({ action: 'update', userKey: '', contractKey, placeholder })),
    /** RecipientModal's list (getShareLinks, no component header) and send of the rows as listed. */
    recipients: (contractKey: string) =>
      post('recipient', data({ action: 'list', userKey: '', contractKey, getShareLinks: true })),
    send: (contractKey: string, recipients: unknown[]) =>
      post('recipient', data({ action: 'send', userKey: '', contractKey, recipients })),
    clientRead: () =>
      post('client', data({ action: 'read', userKey: '', client: { clientKey } }), { ...H_API, ...component }),
    /** The owner's sign modal (sign-modal.tsx) and approve modal (approve-modal.tsx). */
    sign: (contractKey: string, fullName: string, email: string, base64: string, ipInfo: string) =>
      post('contract_sign', { clientKey, contractKey, fullName, email, owner: false, base64, ipInfo }),
    approve: (contractKey: string, fullName: string, email: string) =>
      post('contract_approve', { clientKey, contractKey, fullName, email }),
    emailSign: (contractKey: string) => post('contract_email_sign', { clientKey, contractKey }),
    emailApprove: (contractKey: string) => post('contract_email_approve', { clientKey, contractKey }),
    /** The PDF owner-sign path: the merged PDF as a Blob in field `pdf` (no filename), H-own only. */
    emailSignPdf: (contractKey: string, pdf: Uint8Array) => {
      const form = new FormData();
      form.append('pdf', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }));
      return t.request(`/api/contract_email_sign_pdf?contractKey=${contractKey}&clientKey=${queryKey}`, {
        method: 'POST',
        headers: own,
        body: form,
      });
    },
    /** upload_pdf after a PDF create: H-own only, one multipart field `pdf`. */
    uploadPdf: (owner: { contractKey: string } | { templateKey: string }, pdf: Uint8Array) => {
      const form = new FormData();
      form.append('pdf', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }));
      const key = 'contractKey' in owner ? `contractKey=${owner.contractKey}` : `templateKey=${owner.templateKey}`;
      return t.request(`/api/upload_pdf?${key}&clientKey=${queryKey}`, { method: 'POST', headers: own, body: form });
    },
    /** ShareLinkLine's PUT and DELETE: `contractKey` carries the link's controlLink, the API key header always. */
    changeLink: (controlLink: string, shareLink: string, id: number, view: string) =>
      t.request('/api/contract_share_link', {
        method: 'PUT',
        headers: { ...H_API, ...own },
        body: JSON.stringify({ clientKey: queryKey, contractKey: controlLink, shareLink, id, view }),
      }),
    deleteLink: (controlLink: string, id: number) =>
      t.request('/api/contract_share_link', {
        method: 'DELETE',
        headers: { ...H_API, ...own },
        body: JSON.stringify({ clientKey: queryKey, contractKey: controlLink, id }),
      }),
    addLink: (contractKey: string) => post('contract_share_link', { clientKey, contractKey }),

    // ---- TemplateList and TemplateEditor (template-list.tsx, template-editor.tsx) ----
    listTemplates: (userKey?: string) => post('template', data({ action: 'list', userKey })),
    createTemplate: (name: string, value: string, isPdf: boolean) =>
      post('template', data({ action: 'create', userKey: '', template: { name, value, isPdf } })),
    readTemplate: (templateKey: string) => post('template', data({ action: 'read', template: { templateKey } })),
    saveTemplateText: (templateKey: string, value: string) =>
      post('template', data({ action: 'update', userKey: '', template: { templateKey, value } }), H_JSON),
    renameTemplate: (templateKey: string, name: string) =>
      post('template', data({ action: 'update', userKey: '', template: { templateKey, name } })),
    duplicateTemplate: (templateKey: string) =>
      post('template', data({ action: 'duplicate', userKey: '', template: { templateKey } })),
    deleteTemplate: (templateKey: string) =>
      post('template', data({ action: 'delete', userKey: '', template: { templateKey } })),

    // ---- AiAssistant (ai-assistant.tsx) ----
    aiContexts: () => post('context', { data: { action: 'list', clientKey, userKey: '' } }),
  };
}

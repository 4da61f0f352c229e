/**
 * The vendor's RecipientView (sendforsign-components, `src/components/recipient-view/`) as a test client: each call
 * with the method, path, headers and body its source builds (docs/compatibility.md), against the in-process sandbox.
 * No credentials anywhere: the share link names the recipient.
 */
import type { Answer, TestSandbox } from './helpers.js';

/** GETs: axios drops Content-Type when there is no body, so only Accept goes out. */
const GET_HEADERS = { accept: 'application/vnd.api+json' };
/** Most POSTs: H-api. */
const POST_HEADERS = { accept: 'application/vnd.api+json', 'content-type': 'application/vnd.api+json' };
/** POST recipient_contract: its Content-Type line is commented out, so axios sends its default. */
const POST_RECIPIENT_CONTRACT_HEADERS = { accept: 'application/vnd.api+json', 'content-type': 'application/json' };

/** A 1×1 PNG, as the signature pad's `toDataURL()` gives one. */
export const DRAWN_SIGNATURE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** What https://ipapi.co/json answers, as RecipientView stringifies it into `ipInfo`. */
export const IP_INFO = JSON.stringify({
  ip: '203.0.113.7',
  city: 'Lisbon',
  country_name: 'Portugal',
  timezone: 'Europe/Lisbon',
  utc_offset: '+0000',
});

export function recipientView(t: TestSandbox, recipientKey: string) {
  const get = (path: string) => t.request(`/api/${path}`, { method: 'GET', headers: GET_HEADERS });
  const post = (path: string, body: unknown, headers: Record<string, string> = POST_HEADERS) =>
    t.request(`/api/${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const q = `shareLink=${recipientKey}`;
  return {
    /** Mount: GET recipient_contract (recipient-view.tsx). */
    open: (): Promise<Answer> => get(`recipient_contract?${q}`),
    /** Mount, when `audit` is falsy: the view (recipient-view.tsx). */
    seen: (contract: { fullname: string; email: string }) =>
      post('contract_event', { shareLink: recipientKey, status: '3', name: contract.fullname, email: contract.email }),
    events: () => get(`recipient_contract_event?${q}`),
    signs: () => get(`recipient_sign?${q}`),
    status: () => get(`recipient_contract_status?${q}`),
    /** The questions step's Done: every placeholder object as received, with the edited values. */
    answer: (shareLink: string, placeholders: unknown[]) => post('recipient_placeholder', { shareLink, placeholders }),
    saveHtml: (shareLink: string, contractValue: string) =>
      post('recipient_contract', { shareLink, contractValue }, POST_RECIPIENT_CONTRACT_HEADERS),
    checkChanged: (shareLink: string, changeTime: unknown, view: unknown) =>
      post('check_contract_changed', { shareLink, changeTime, view }),
    /** The sign modal's OK (sign-modal.tsx). */
    sign: (shareLink: string, fullName: string, email: string, base64 = DRAWN_SIGNATURE, ipInfo = IP_INFO) =>
      post('recipient_sign', { shareLink, fullName, email, owner: false, base64, ipInfo }),
    signEmail: (shareLink: string) => post('recipient_sign_email', { shareLink }),
    /** The approve modal's OK (approve-modal.tsx). */
    approve: (shareLink: string, fullName: string, email: string) =>
      post('recipient_approve', { shareLink, fullName, email }),
    approveEmail: (shareLink: string) => post('recipient_approve_email', { shareLink }),
    /** Download PDF: no headers at all, the answer as bytes. */
    async download(): Promise<{ status: number; type: string | null; bytes: Uint8Array }> {
      const res = await t.sandbox.app.request(`/api/recipient_download_pdf?${q}&owner=true`);
      return {
        status: res.status,
        type: res.headers.get('content-type'),
        bytes: new Uint8Array(await res.arrayBuffer()),
      };
    },
  };
}

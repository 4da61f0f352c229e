/** The link a request email carries to a recipient's page (a stable scheme: later pages keep it). */
export function recipientLink(baseUrl: string, recipientKey: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/__sandbox/sign/${encodeURIComponent(recipientKey)}`;
}

/**
 * The link a request email carries to a recipient's page: `<base>/sharing/<recipientKey>`, the shape of the real
 * service's recipient links, whose own share link is the recipient key ("Share/recipient link
 * …/sharing/{recipientKey or shareLink}" [C:config.ts]).
 */
export function recipientLink(baseUrl: string, recipientKey: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/sharing/${encodeURIComponent(recipientKey)}`;
}

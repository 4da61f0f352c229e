/** The shared calls of the refusal tests (errors.test.ts, hostile-request.test.ts), reading the sandbox through `sandbox`. */
import type { TestSandbox } from './helpers.js';

export const json = { 'content-type': 'application/json' };

export function refusalKit(sandbox: () => TestSandbox) {
  /** A raw POST; bytes rather than a string, so no content type is added that the case did not ask for. */
  const raw = (path: string, body: string, headers: Record<string, string> = json) =>
    sandbox().request(path, { method: 'POST', headers, body: new TextEncoder().encode(body) });
  const asClient = async (path: string, body: unknown) => sandbox().post(path, body, await sandbox().demoAuth());

  /** A contract of the demo client, sent to one recipient. */
  async function sentContract(): Promise<{ contractKey: string; recipientKey: string }> {
    const created = await asClient('/api/contract', {
      data: {
        action: 'create',
        contract: { name: 'C', value: '<p>x</p>' },
        recipients: [{ email: 'a@example.com', fullname: 'A' }],
      },
    });
    const contractKey = created.body.contract.contractKey as string;
    const list = await asClient('/api/recipient', { data: { action: 'list', contractKey } });
    return { contractKey, recipientKey: list.body.recipients[0].recipientKey };
  }

  /** A second client of the demo platform, with one contract. */
  async function otherClientContract(): Promise<{ clientKey: string; contractKey: string }> {
    const t = sandbox();
    const platform = { bearer: await t.platformToken() };
    const client = await t.post('/api/client', { data: { action: 'create', client: { fullname: 'Other' } } }, platform);
    const clientKey = client.body.client.clientKey as string;
    const contract = await t.post(
      '/api/contract',
      { data: { action: 'create', clientKey, contract: { name: 'Theirs', value: 'x' } } },
      platform,
    );
    return { clientKey, contractKey: contract.body.contract.contractKey };
  }

  return { raw, asClient, sentContract, otherClientContract };
}

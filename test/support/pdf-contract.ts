/** The shared calls of the document tests: a PDF contract of the demo client, sent, with special placeholders placed. */
import { expect } from 'vitest';
import { DEMO, type TestSandbox } from './helpers.js';

export const API = { apiKey: DEMO.apiKey } as const;
export const Q = `clientKey=${DEMO.clientKey}`;
// A 1×1 red PNG: a drawn signature as the recipient page sends it.
export const PNG_SIGNATURE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

export function pdfContractCalls(sandbox: () => TestSandbox) {
  async function pdfContract(name = 'Lease'): Promise<string> {
    const res = await sandbox().post(
      '/api/contract',
      { data: { action: 'create', clientKey: DEMO.clientKey, contract: { name, contractType: 'pdf' } } },
      API,
    );
    expect(res.status).toBe(201);
    return res.body.contract.contractKey;
  }

  async function send(
    contractKey: string,
    recipients: { fullname: string; email: string; action?: string; position?: number }[],
  ): Promise<string[]> {
    const sent = await sandbox().post(
      '/api/recipient',
      {
        data: {
          action: 'send',
          clientKey: DEMO.clientKey,
          contractKey,
          recipients: recipients.map((r, i) => ({ action: 'sign', position: i + 1, ...r })),
        },
      },
      API,
    );
    expect(sent.status).toBe(200);
    const list = await sandbox().post(
      '/api/recipient',
      { data: { action: 'list', clientKey: DEMO.clientKey, contractKey } },
      API,
    );
    return list.body.recipients.map((r: { recipientKey: string }) => r.recipientKey);
  }

  function place(
    contractKey: string,
    placeholders: { placeholderKey: string; specialType: number; insertion: Record<string, unknown>[] }[],
  ) {
    return sandbox().post(
      '/api/placeholder',
      {
        data: {
          action: 'update',
          clientKey: DEMO.clientKey,
          contractKey,
          placeholders: placeholders.map((p) => ({ ...p, isSpecial: true })),
        },
      },
      API,
    );
  }

  return { pdfContract, send, place };
}

export const box = (pageId: number, positionX: number, positionY: number, width = 300, height = 50) => ({
  id: '1',
  action: 'update',
  clientKey: DEMO.clientKey,
  pageId: String(pageId),
  positionX: String(positionX),
  positionY: String(positionY),
  width: String(width),
  height: String(height),
});

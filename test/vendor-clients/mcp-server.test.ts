/**
 * The vendor's MCP server (sendforsign/mcp, src/index.ts) replayed against the sandbox: each tool's request as its
 * `sfsApiCall` builds it (POST, `X-Sendforsign-Key`, `Content-Type: application/json`, `clientKey` in `data`), and
 * the check it makes (any status outside 2xx is an error the assistant sees). docs/compatibility.md, "The MCP server".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, type TestSandbox, testSandbox } from '../support/helpers.js';

let t: TestSandbox;
beforeAll(async () => {
  t = await testSandbox();
});
afterAll(() => t.close());

/** sfsApiCall: the one request shape every tool uses. */
function sfsApiCall(path: 'template' | 'placeholder' | 'contract', body: unknown) {
  return t.request(`/api/${path}`, {
    method: 'POST',
    headers: { 'X-Sendforsign-Key': DEMO.apiKey, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

const clientKey = DEMO.clientKey;

describe('every tool of the MCP server', () => {
  it.each([
    [
      'sfs_list_templates',
      'template' as const,
      { data: { clientKey, action: 'list' } },
      (body: any) =>
        expect(body.templates.map((x: { templateKey: string }) => x.templateKey)).toContain(DEMO.templateKey),
    ],
    [
      'sfs_read_template',
      'template' as const,
      { data: { action: 'read', clientKey, template: { templateKey: DEMO.templateKey } } },
      (body: any) => expect(body.template).toMatchObject({ templateKey: DEMO.templateKey, value: expect.any(String) }),
    ],
    [
      'sfs_list_placeholders',
      'placeholder' as const,
      { data: { action: 'list', clientKey, templateKey: DEMO.templateKey } },
      (body: any) => expect(Array.isArray(body.placeholders)).toBe(true),
    ],
    [
      'sfs_create_contract',
      'contract' as const,
      { data: { action: 'create', clientKey, contract: { name: 'From the assistant', value: '<p>Terms</p>' } } },
      (body: any) => expect(body.contract.contractKey).toMatch(/^[A-Za-z0-9]+$/),
    ],
  ])('%s gets a 2xx answer with what the assistant is shown', async (_tool, path, body, check) => {
    const res = await sfsApiCall(path, body);
    expect(res.status).toBeGreaterThanOrEqual(200);
    expect(res.status).toBeLessThan(300);
    check(res.body);
  });
});

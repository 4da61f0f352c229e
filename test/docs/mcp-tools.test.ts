/**
 * docs/mcp.md lists every MCP tool, generated from the tools the server offers (src/mcp/tool-list.ts, over
 * `mcpTools()`, itself derived from the control table): this fails when the tools and the page differ.
 * `npm run docs` (`UPDATE_DOCS=1` on this test) writes the page's generated block again.
 */
import { describe, expect, it } from 'vitest';
import { expectGeneratedBlock } from '../support/generated-docs.js';
import { mcpToolList } from '../../src/mcp/tool-list.js';
import { mcpTools } from '../../src/mcp/tools.js';

const PAGE = new URL('../../docs/mcp.md', import.meta.url);
const BLOCK = /(<!-- generated from the MCP tools[^\n]*-->\n)([\s\S]*?)(\n<!-- end of the generated tools -->)/;

describe("docs/mcp.md's list of tools", () => {
  it('is the MCP tools as they are now', () => {
    expectGeneratedBlock(PAGE, BLOCK, mcpToolList());
  });

  it('has one row per tool, saying yes under `apiKey` exactly for the tools about a tenant', () => {
    const rows = mcpToolList().split('\n').slice(2);
    const tools = mcpTools();
    expect(rows).toHaveLength(tools.length);
    tools.forEach((tool, i) => {
      const cells = rows[i]!.split(' | ');
      expect(cells[0]).toBe(`| \`${tool.name}\``);
      const tenant = [...tool.routes.values()].every((entry) => entry.tenant);
      expect(cells[1], tool.name).toBe(tenant ? 'yes' : '');
      expect(cells[2]!.length, tool.name).toBeGreaterThan(10);
    });
  });

  it("says what each verb of a tool of several routes does, from each route's summary", () => {
    const row = mcpToolList()
      .split('\n')
      .find((line) => line.startsWith('| `act_as_recipient` |'))!;
    for (const verb of ['view', 'sign', 'approve', 'lock']) expect(row).toContain(`\`${verb}\`: it `);
    expect(row).toContain('**`recipientKey`**, **`verb`**, `signature`');
  });
});

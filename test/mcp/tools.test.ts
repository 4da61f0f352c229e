/**
 * The MCP tools are derived from the control table (docs/mcp.md): every control operation reaches its route through
 * a tool, with the route's path parameters required, the tenant scope as `apiKey` exactly where the route is a
 * tenant's, and a description. Each takes its name from its entries' `tool` (control-table/operation.ts); two routes
 * folded into one tool by mistake, or two entries of one route naming different tools, fail here.
 */
import { describe, expect, it } from 'vitest';
import { controlEntries } from '../../src/control-table/index.js';
import { mcpTools } from '../../src/mcp/tools.js';

const tools = mcpTools();
const route = (entry: { op: { route: string } }) => entry.op.route;

describe('the MCP tools', () => {
  it.each(controlEntries.map((entry) => [entry.name, entry] as const))(
    'control operation %s is a tool calling its route',
    (_name, entry) => {
      const serving = tools.filter((tool) => [...tool.routes.values()].some((e) => route(e) === route(entry)));
      expect(serving.map((tool) => tool.name)).toHaveLength(1);
      const [tool] = serving as [(typeof tools)[number]];
      for (const param of entry.path.matchAll(/\{(\w+)\}/g))
        expect(tool.inputSchema.required, param[1]).toContain(param[1]);
      expect('apiKey' in tool.inputSchema.properties && entry.tenant).toBe(entry.tenant);
      expect(tool.description.length).toBeGreaterThan(10);
    },
  );

  it('has one tool per route, but for the recipient verbs gathered in act_as_recipient', () => {
    const routes = new Set(controlEntries.map(route));
    const verbs = tools.find((tool) => tool.name === 'act_as_recipient')!.routes.size;
    expect(verbs).toBe(4);
    expect(tools).toHaveLength(routes.size - (verbs - 1));
    expect(new Set(tools.map((tool) => tool.name)).size).toBe(tools.length);
  });

  it('are named by their entries, in snake_case, and entries sharing a route name the same tool', () => {
    for (const tool of tools) expect(tool.name).toMatch(/^[a-z][a-z0-9_]{0,63}$/);
    for (const entry of controlEntries) {
      const sharing = controlEntries.filter((other) => route(other) === route(entry));
      expect(new Set(sharing.map((other) => other.op.tool)), entry.name).toEqual(new Set([entry.op.tool]));
    }
    expect(controlEntries.find((entry) => entry.name === 'scenarios.loadFile')!.op.tool).toBe('load_scenario');
  });
});

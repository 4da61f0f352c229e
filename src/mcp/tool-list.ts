/**
 * The MCP tools as docs/mcp.md lists them ("The tools"): one row per tool of `mcpTools()`, in its order, with what
 * it does (its entries' summaries), its inputs, and whether it takes `apiKey` as a tenant's scope. Generated, and
 * test/docs/mcp-tools.test.ts checks the page against it (`npm run docs` writes the page's block again), so the page
 * names every tool as the server offers it.
 */
import { type Tool, mcpTools } from './tools.js';

/** What a tool does: its entry's summary; a tool of several routes, each verb's, after the words they share. */
function summaryOf(tool: Tool): string {
  const entries = [...tool.routes];
  if (entries.length === 1) return entries[0]![1].op.summary;
  const lead = entries[0]![1].op.summary.split(': ')[0]!;
  const shared = entries.every(([, entry]) => entry.op.summary.startsWith(`${lead}: `));
  const verbs = entries.map(([verb, entry]) => {
    const what = shared ? entry.op.summary.slice(lead.length + 2) : entry.op.summary;
    return `\`${verb}\`: ${what}`;
  });
  return `${shared ? `${lead}, by \`verb\`` : 'By `verb`'}: ${verbs.join('; ')}`;
}

/** Its inputs, the required first, less `apiKey` where that is the tenant's scope (its own column). */
function inputsOf(tool: Tool, scoped: boolean): string {
  const required = tool.inputSchema.required ?? [];
  const names = Object.keys(tool.inputSchema.properties).filter((name) => !(scoped && name === 'apiKey'));
  const ordered = [...required, ...names.filter((name) => !required.includes(name))];
  return ordered.map((name) => (required.includes(name) ? `**\`${name}\`**` : `\`${name}\``)).join(', ');
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** The table of docs/mcp.md: tool, whether `apiKey` scopes it, what it does, its inputs (required ones in bold). */
export function mcpToolList(tools: Tool[] = mcpTools()): string {
  const rows = tools.map((tool) => {
    const scoped = [...tool.routes.values()][0]!.tenant;
    const cells = [`\`${tool.name}\``, scoped ? 'yes' : '', summaryOf(tool), inputsOf(tool, scoped)];
    return `| ${cells.map(cell).join(' | ')} |`;
  });
  return ['| tool | takes `apiKey` | what it does | inputs (**required**) |', '|---|---|---|---|', ...rows].join('\n');
}

/**
 * The sandbox's MCP server (docs/mcp.md) on the official `@modelcontextprotocol/sdk`: the tools of tools.ts, over
 * stdio (`esign-sandbox mcp`, for desktop and editor agents) or Streamable HTTP (`/__sandbox/mcp`, stateless: each
 * request is answered on its own). A refused or invalid call is an MCP tool error carrying the control API's
 * message (`isError`), never a failure of the server. Imported only by those two ways in: the SDK is not part of
 * the sandbox's start.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { VERSION } from '../config/version.js';
import { TextAnswer } from '../control-table/operation.js';
import { type Send, callTool, mcpTools } from './tools.js';

const INSTRUCTIONS =
  'Drives an esign-sandbox (a local sandbox of the Contract Signing Service API): make tenants, move their clocks, ' +
  'act as recipients, read contracts, emails, webhook deliveries and the request journal, load scenarios. Tools ' +
  "about one tenant's world take its apiKey; without it they act on the whole sandbox.";

export function createMcpServer(send: Send): Server {
  const tools = mcpTools();
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const server = new Server(
    { name: 'esign-sandbox', version: VERSION },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
    const tool = byName.get(params.name);
    if (!tool)
      return failure(`Unknown tool ${JSON.stringify(params.name)}; the tools are ${[...byName.keys()].join(', ')}`);
    try {
      const answer = await callTool(tool, params.arguments ?? {}, send);
      // A report asked for as JUnit XML or Markdown is text: in process a TextAnswer, over HTTP the body as it came.
      const shown =
        answer instanceof TextAnswer
          ? answer.text
          : typeof answer === 'string'
            ? answer
            : JSON.stringify(answer ?? null, null, 2);
      return { content: [{ type: 'text' as const, text: shown }] };
    } catch (error) {
      return failure(error instanceof Error ? error.message : String(error));
    }
  });
  return server;
}

function failure(message: string) {
  return { isError: true, content: [{ type: 'text' as const, text: message }] };
}

/** `esign-sandbox mcp`: the server on this process's stdin and stdout, until the client closes them. */
export async function serveStdio(send: Send): Promise<void> {
  const server = createMcpServer(send);
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  await server.connect(new StdioServerTransport());
  await closed;
}

/** One Streamable HTTP request to `/__sandbox/mcp`, answered by a server of its own (stateless, JSON answers). */
export async function handleMcpRequest(request: Request, send: Send): Promise<Response> {
  const server = createMcpServer(send);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    await server.close();
  }
}
